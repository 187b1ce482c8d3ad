import Plexus
import PlexusTesting
import Testing

// `async` and `@MainActor` factories handed their container: no capture list, the same resolution graph across
// every `await`.

private final class Session: Sendable {
    init() async { await Task.yield() }
}

private final class Api: Sendable {}

private final class Inbox: Sendable {
    let session: Session
    let api: Api
    let sameApi: Api
    init(session: Session, api: Api, sameApi: Api) {
        self.session = session
        self.api = api
        self.sameApi = sameApi
    }
}

@MainActor private final class InboxView {
    weak var presenter: InboxPresenter?
}

@MainActor private final class InboxPresenter {
    let api: Api
    var view: InboxView?
    init(api: Api) { self.api = api }
}

@Suite(.silencingPlexusLogs) struct ContainerParameterAsyncTests {
    @Test func anAsyncFactoryTakesTheContainerAndSharesAcrossAwait() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { () async -> Session in await Session() }
        container.register(.shared) { Api() }
        container.register { c async throws in
            Inbox(session: try await c.resolve(), api: try await c.resolve(), sameApi: try await c.resolve())
        }

        let inbox: Inbox = try await container.resolve()

        #expect(inbox.api === inbox.sameApi, "one .shared Api across the awaits of one graph")
    }

    @Test func aContainerWithAsyncFactoriesTakingItIsFreed() async throws {
        weak var weakContainer: DependencyContainer?
        do {
            let container = DependencyContainer()
            container.register(.singleton) { c async throws in
                Inbox(session: await Session(), api: try await c.resolve(), sameApi: try await c.resolve())
            }
            container.register(.singleton) { Api() }
            _ = try await container.resolve() as Inbox
            weakContainer = container
        }

        #expect(weakContainer == nil, "the container leaked")
    }

    @MainActor @Test func aMainActorFactoryTakesTheContainerWithMainActorHooks() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Api() }
        container.register(.shared) { @MainActor c in InboxPresenter(api: try c.resolve()) }
            .resolvingProperties { @MainActor c, presenter in presenter.view = try c.resolve() }
        container.register(.shared) { @MainActor in InboxView() }
            .resolvingProperties { @MainActor c, view in view.presenter = try c.resolve() }

        let here = try resolveSynchronously(InboxPresenter.self, from: container)
        let fromElsewhere = try await Task.detached { try await container.resolve() as InboxPresenter }.value

        #expect(here.view?.presenter === here)
        #expect(fromElsewhere.view?.presenter === fromElsewhere)
        #expect(fromElsewhere.api === here.api)
    }
}

/// A synchronous resolve: in an async function Swift picks the async overload.
private func resolveSynchronously<T>(_: T.Type, from container: DependencyContainer) throws -> T {
    try container.resolve()
}
