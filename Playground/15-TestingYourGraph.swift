import Plexus

// Copy `graphProblems(in:)` into your test target and call it on your real wiring:
//
//     @Test func appGraphBuilds() {
//         #expect(graphProblems(in: makeApp()) == [])
//     }
//
// `validate` resolves every definition of a container (through its collaborators), so a missing registration
// or a constructor cycle fails the test instead of the app.

/// The containers of an app, one per module, as its composition root wires them.
private struct App {
    let root = DependencyContainer()
    let feed = DependencyContainer()
    let profile = DependencyContainer()

    var modules: [(name: String, container: DependencyContainer)] {
        [("root", root), ("feed", feed), ("profile", profile)]
    }
}

private enum Mistake {
    case missingRegistration
    case constructorCycle
}

private protocol Store: AnyObject {}
private final class MemoryStore: Store {}

private final class FeedPresenter {
    let store: Store
    let profile: ProfilePresenter
    init(store: Store, profile: ProfilePresenter) {
        self.store = store
        self.profile = profile
    }
}

private final class ProfilePresenter {
    weak var feed: FeedPresenter?
    init(feed: FeedPresenter?) { self.feed = feed }
}

private final class Avatar {
    init(userID: Int) {}
}

private func makeApp(with mistake: Mistake? = nil) -> App {
    let app = App()
    if mistake != .missingRegistration {
        app.root.register(.singleton) { MemoryStore() as Store }
    }
    let feed = app.feed
    feed.register { c in FeedPresenter(store: try c.resolve(), profile: try c.resolve()) }
    let profile = app.profile
    if mistake == .constructorCycle {
        // The mistake: the back-reference moved from a property hook into the initializer.
        profile.register { c in ProfilePresenter(feed: try c.resolve() as FeedPresenter) }
    } else {
        profile.register { ProfilePresenter(feed: nil) }
            .resolvingProperties { container, presenter in presenter.feed = try container.resolve() }
    }
    profile.register(.unique) { (userID: Int) in Avatar(userID: userID) }
    feed.collaborate(with: profile, app.root)
    profile.collaborate(with: feed, app.root)
    return app
}

/// What keeps each container of `app` from building its graph: one line per broken module, empty when sound.
private func graphProblems(in app: App) -> [String] {
    var problems: [String] = []
    for (name, container) in app.modules {
        do {
            // Pass one argument set per definition that takes runtime arguments.
            try container.validate(42)
        } catch {
            problems.append("\(name): \(error)")
        }
    }
    return problems
}

@MainActor
func testingYourGraph() throws {
    let sound = graphProblems(in: makeApp())
    check(sound.isEmpty, "the app as wired has no missing registration and no constructor cycle")

    let missing = graphProblems(in: makeApp(with: .missingRegistration))
    for problem in missing { show(problem) }
    check(
        missing.count == 2 && missing.allSatisfy { $0.contains("No definition registered for Store") },
        "forgetting to register the Store is caught in each module whose graph needs it, by name")

    let cycle = graphProblems(in: makeApp(with: .constructorCycle))
    for problem in cycle { show(problem) }
    check(
        cycle.count == 2 && cycle.allSatisfy { $0.contains("Circular dependency: ") },
        "moving a back-reference into an initializer is caught as a cycle, with its path")
}
