import Plexus
import PlexusTesting
import Testing

private final class Tracker: Sendable {
    let name: String
    init(name: String = "default") { self.name = name }
}

extension DependencyContainer {
    fileprivate var tracker: Factory<Tracker> { self { Tracker() }.singleton }
    fileprivate var trackerByID: ParameterFactory<Int, Tracker> { self { id in Tracker(name: "\(id)") }.singleton }
    fileprivate var asyncTracker: AsyncFactory<Tracker> { self { Tracker() }.singleton }

    fileprivate enum NamespaceResetTrackers {}
    fileprivate typealias ResetTrackers = Namespace<NamespaceResetTrackers>
    fileprivate var resetTrackers: ResetTrackers { namespace() }
}

extension DependencyContainer.ResetTrackers {
    fileprivate var tracker: SingletonFactory<Tracker> {
        get { resolve { Tracker() } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorResetTests {
    let container = DependencyContainer()

    @Test func resetDropsTheOverrideAndTheKeptInstance() {
        container.tracker.replace { Tracker(name: "override") }
        let before = container.tracker()
        container.tracker.reset()
        let after = container.tracker()
        #expect(after !== before)
        #expect(after.name == "default")
    }

    @Test func resetOfTheScopeDropsOnlyTheKeptInstance() {
        container.tracker.replace { Tracker(name: "override") }
        let before = container.tracker()
        container.tracker.reset(.scope)
        let after = container.tracker()
        #expect(after !== before)
        #expect(after.name == "override")
        #expect(container.tracker() === after)
    }

    @Test func resetOfTheScopeDropsTheDeclaredDefaultsInstance() {
        let before = container.tracker()
        container.tracker.reset(.scope)
        #expect(container.tracker() !== before)
    }

    @Test func resetOfTheOverrideGoesBackToTheDefault() {
        let original = container.tracker()
        container.tracker.replace { Tracker(name: "override") }
        _ = container.tracker()
        container.tracker.reset(.override)
        #expect(container.tracker() === original)
    }

    @Test func aNamespaceAccessorIsReset() {
        container.resetTrackers.tracker = .single { Tracker(name: "assigned") }
        #expect(container.resetTrackers.tracker().name == "assigned")
        container.resetTrackers.tracker.reset()
        #expect(container.resetTrackers.tracker().name == "default")
    }

    @Test func resetDropsTheInstancesKeptPerArgument() {
        let before = container.trackerByID(1)
        container.trackerByID.reset(.scope)
        #expect(container.trackerByID(1) !== before)
    }

    @Test func resetKeepsDecorators() {
        container.tracker.decorate { Tracker(name: $0.name + "+decorated") }
        container.tracker.reset()
        #expect(container.tracker().name == "default+decorated")
    }

    @Test func anAsyncAccessorIsReset() async throws {
        let before = try await container.asyncTracker()
        container.asyncTracker.reset(.scope)
        #expect(try await container.asyncTracker() !== before)
    }
}
