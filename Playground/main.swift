import Foundation
import Plexus

// The tour shows misuse on purpose (a tag falling back, an override with no effect) and prints what it checks;
// without this Plexus would log each case too.
Plexus.logLevel = .none

print("A tour of Plexus: every line marked ✓ was checked as it printed.")

chapter("Creating containers", creatingContainers)
chapter("Registering", registering)
chapter("Resolving", resolving)
chapter("Tags", tags)
chapter("Runtime arguments", runtimeArguments)
chapter("Scopes", scopes)
chapter("Circular dependencies", circularDependencies)
chapter("Shared instances", sharedInstances)
chapter("Auto-wiring", autoWiring)
chapter("Auto-injection", autoInjection)
chapter("Type forwarding", typeForwarding)
chapter("Containers collaboration", collaboration)
chapter("Bootstrap and validate", bootstrapAndValidate)
chapter("Errors", errors)
chapter("Testing your graph", testingYourGraph)
chapter("SDK-style namespaces", sdkNamespaces)
chapter("Factory-style storage", factoryStorage)
chapter("Saber-style module containers", saberModules)
chapter("Isolating tests", isolatingTests)
chapter("Seeing your graph", seeingYourGraph)
// Top-level code: Swift ranks `resolve` overloads here as in a synchronous function, even after `await`, so
// `try await container.resolve()` written here would call the synchronous overload (the compiler warns that no
// 'async' operations occur within it). Dip's synchronous form resolves here; an async definition is resolved by
// awaiting an async function. Chapter 21 checks both.
TopLevel.resolvedSynchronously = (try? TopLevel.container.resolve() as TopLevelClock) != nil
TopLevel.awaited = try? await resolveAwaiting(TopLevelSession.self, from: TopLevel.container).name

// The first snippet of the Concurrency article, pasted as a reader would, with the types it assumes.
do {
    final class Database: Sendable {
        static func open(_ path: String) async throws -> Database {
            await Task.yield()
            return Database()
        }
    }
    final class Api: Sendable {}
    final class Inbox: Sendable {
        let database: Database
        let api: Api
        init(database: Database, api: Api) {
            self.database = database
            self.api = api
        }
    }

    let container = DependencyContainer()
    container.register(.singleton) { () async throws -> Database in try await Database.open("app.sqlite") }
    container.register { c async throws in
        Inbox(database: try await c.resolve(), api: try await c.resolve())
    }
    container.register(.singleton) { Api() }  // a synchronous definition, resolvable with await too

    func openInbox(from container: DependencyContainer) async throws -> Inbox {
        try await container.resolve()  // an async function: Swift picks the async resolve
    }
    let inbox = try await openInbox(from: container)
    TopLevel.articleSnippetResolved = inbox.database === (try await openInbox(from: container).database)
}

await chapter("Swift concurrency", swiftConcurrency)
await chapter("Factory, round two", factoryRoundTwo)
chapter("Factory code, by changing its import", factoryByImport)

print("")
if Tour.failures.isEmpty {
    print("Tour complete: \(Tour.chapters) chapters, \(Tour.passed) checks passed.")
} else {
    print("Tour complete: \(Tour.chapters) chapters, \(Tour.passed) checks passed, \(Tour.failures.count) failed:")
    for failure in Tour.failures {
        print("  ✗ \(failure)")
    }
    exit(1)
}
