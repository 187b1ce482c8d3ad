import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Api: Sendable {}

@MainActor private final class ProfileView {
    weak var presenter: ProfilePresenter?
}

@MainActor private final class ProfilePresenter {
    let api: Api
    var view: ProfileView?
    var title = ""
    init(api: Api) { self.api = api }
}

/// A container with the everyday main-actor screen: a presenter and its view, wired by `@MainActor` hooks.
private func screen() -> DependencyContainer {
    let container = DependencyContainer()
    container.register(.singleton) { Api() }
    container.register(.shared) { @MainActor [unowned container] in ProfilePresenter(api: try container.resolve()) }
        .resolvingProperties { @MainActor container, presenter in
            presenter.view = try container.resolve()
            presenter.title = "Profile"
        }
    container.register(.shared) { @MainActor in ProfileView() }
        .resolvingProperties { @MainActor container, view in view.presenter = try container.resolve() }
    return container
}

@Suite(.silencingPlexusLogs) struct MainActorFactoryTests {
    @MainActor @Test func onTheMainActorAMainActorFactoryResolvesSynchronously() throws {
        let container = screen()
        let presenter: ProfilePresenter = try container.resolve()
        #expect(presenter.title == "Profile")
        #expect(presenter.view?.presenter === presenter)
    }

    @Test func fromAnotherContextTheAsyncResolveHopsToTheMainActor() async throws {
        let container = screen()
        let presenter = try await Task.detached { try await container.resolve() as ProfilePresenter }.value
        let wired = await MainActor.run { presenter.view?.presenter === presenter && presenter.title == "Profile" }
        #expect(wired)
    }

    @Test func aSynchronousResolveOffTheMainActorThrowsInsteadOfTrapping() async throws {
        let container = screen()
        // A detached task does not inherit the suite's task-local silencing.
        let outcome = await Task.detached { () -> String in
            Plexus.withLogging(level: .none) {
                do {
                    _ = try container.resolve() as ProfilePresenter
                    return "resolved"
                } catch ResolutionError.requiresMainActor(let key) {
                    return "\(key.type)"
                } catch {
                    return "\(error)"
                }
            }
        }.value
        #expect(outcome.contains("ProfilePresenter"))
        // The container stays usable from the main actor.
        let presenter = try await MainActor.run { try container.resolve() as ProfilePresenter }
        #expect(await MainActor.run { presenter.title } == "Profile")
    }

    @Test func aMainActorSingletonIsMadeOnceForConcurrentTasks() async throws {
        let container = DependencyContainer()
        let made = Counter()
        container.register(.singleton) { @MainActor () -> ProfileView in
            made.increment()
            return ProfileView()
        }
        let views = try await withThrowingTaskGroup(of: ProfileView.self) { group in
            for _ in 0..<12 { group.addTask { try await container.resolve() as ProfileView } }
            return try await group.reduce(into: [ProfileView]()) { $0.append($1) }
        }
        #expect(made.count == 1)
        #expect(views.allSatisfy { $0 === views[0] })
    }
}
