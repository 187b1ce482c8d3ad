import Plexus
import PlexusTesting
import Testing

// Each place a user writes `resolve` or `bootstrap`, and which overload Swift picks there. Every definition here
// is async-only, so a resolve written with `await` that succeeds took the async path (the synchronous one throws
// `requiresAwait`). That this file compiles is part of the test: Dip's synchronous spellings in synchronous code,
// synchronous factories inside async functions, and `await` in every kind of async context.
// Top-level code (`main.swift`) is the one place Swift picks the synchronous overload despite `await`; tests have
// no top-level code, so the tour's `main.swift` shows that case.

private final class Session: Sendable {
    let id: Int
    init(id: Int = 0) async {
        await Task.yield()
        self.id = id
    }
}

private final class Api: Sendable {}

/// A synchronous definition that needs an already-made `Session`.
private final class Client: Sendable {
    let api: Api
    init(api: Api) { self.api = api }
}

/// A container whose `Session` definitions (plain, tagged, with an argument, eager) only `await` can make.
private func asyncOnly() -> DependencyContainer {
    let container = DependencyContainer()
    container.register(.singleton) { () async -> Session in await Session(id: 1) }
    container.register(tag: "backup") { () async -> Session in await Session(id: 2) }
    container.register { (id: Int) async -> Session in await Session(id: id) }
    container.register(.eagerSingleton, tag: "eager") { () async -> Session in await Session(id: 3) }
    container.register { Api() }
    return container
}

/// Dip's code, unchanged: a synchronous function resolving with `try container.resolve()`.
private func resolveLikeDip<T>(_: T.Type, from container: DependencyContainer) throws -> T {
    try container.resolve()
}

@MainActor private func resolveOnTheMainActor(from container: DependencyContainer) async throws -> Session {
    try await container.resolve()
}

@Suite(.silencingPlexusLogs) struct AwaitCallSiteTests {
    @Test func inAnAsyncFunctionEveryAwaitedFormTakesTheAsyncPath() async throws {
        let container = asyncOnly()

        let plain: Session = try await container.resolve()
        let tagged: Session = try await container.resolve(tag: "backup")
        let withArgument: Session = try await container.resolve(arguments: 9)
        let weaklyTyped = try await container.resolve(Session.self) as? Session
        let weaklyTypedWithArgument = try await container.resolve(Session.self, arguments: 8) as? Session
        try await container.bootstrap()

        #expect([plain.id, tagged.id, withArgument.id] == [1, 2, 9])
        #expect(weaklyTyped?.id == 1 && weaklyTypedWithArgument?.id == 8)
        #expect(container.isBootstrapped)
    }

    @MainActor @Test func onTheMainActorAwaitTakesTheAsyncPath() async throws {
        let container = asyncOnly()
        let session: Session = try await container.resolve()
        #expect(session.id == 1)
        #expect(try await resolveOnTheMainActor(from: container).id == 1)
    }

    @Test func inClosuresPassedToTasksAwaitTakesTheAsyncPath() async throws {
        let container = asyncOnly()

        let inTask = try await Task { try await container.resolve() as Session }.value
        let detached = try await Task.detached { try await container.resolve(tag: "backup") as Session }.value
        async let inAsyncLet: Session = container.resolve(arguments: 5)
        let inGroup = try await withThrowingTaskGroup(of: Session.self) { group in
            group.addTask { try await container.resolve(arguments: 6) }
            return try await group.next()
        }

        #expect(inTask.id == 1 && detached.id == 2)
        #expect(try await inAsyncLet.id == 5)
        #expect(inGroup?.id == 6)
    }

    @Test func aSynchronousFunctionKeepsDipsSynchronousResolve() async throws {
        let container = asyncOnly()

        // Called from an async test, the synchronous function still picks the synchronous overload.
        let error = #expect(throws: ResolutionError.self) { try resolveLikeDip(Session.self, from: container) }
        guard case .requiresAwait = error else {
            Issue.record("expected requiresAwait, got \(String(describing: error))")
            return
        }
        #expect(throws: Never.self) { try resolveLikeDip(Api.self, from: container) }
        _ = try await container.resolve() as Session
        #expect(try resolveLikeDip(Session.self, from: container).id == 1, "a made singleton resolves synchronously")
    }

    @Test func aSynchronousFactoryRegisteredInAnAsyncFunctionResolvesWithoutAwait() async throws {
        let container = asyncOnly()
        // Both closures are synchronous: inside them Swift picks the synchronous `resolve`, as in Dip.
        container.register { [unowned container] in Client(api: try container.resolve()) }
        container.register(tag: "passed") { c in Client(api: try c.resolve()) }

        let client: Client = try await container.resolve()
        let passed: Client = try await container.resolve(tag: "passed")

        #expect(client.api !== passed.api, "two .shared graphs")
    }
}
