import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article Concurrency.md, kept here as the article writes them, with the fixture types they
// assume. The first one also runs as top-level code in the tour's `main.swift` (`swift run PlexusTour`), where a
// reader pasting it would put it.

private final class Database: Sendable {
    static func open(_ path: String) async throws -> Database {
        await Task.yield()
        return Database()
    }
}
private final class Api: Sendable {}
private final class Inbox: Sendable {
    let database: Database
    let api: Api
    init(database: Database, api: Api) {
        self.database = database
        self.api = api
    }
}

@MainActor private final class ProfileView {
    var presenter: ProfilePresenter?
}
@MainActor private final class ProfilePresenter {
    let api: Api
    weak var view: ProfileView?
    init(api: Api) { self.api = api }
}

@Suite(.silencingPlexusLogs) struct ConcurrencySnippetTests {
    @Test func overviewSnippetResolvesTheInboxThroughAnAsyncFunction() async throws {
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
        #expect(inbox.database === (try await openInbox(from: container)).database)
    }

    @MainActor @Test func mainActorSnippetClosesThePresenterAndItsView() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Api() }
        container.register { @MainActor c in ProfilePresenter(api: try c.resolve()) }
            .resolvingProperties { @MainActor container, presenter in presenter.view = try container.resolve() }
        container.register { @MainActor in ProfileView() }
            .resolvingProperties { @MainActor container, view in view.presenter = try container.resolve() }

        let view: ProfileView = try await container.resolve()
        #expect(view.presenter?.view === view)
    }
}
