import Plexus
import PlexusTesting
import Testing

private protocol Clock: Sendable {
    var name: String { get }
}
private struct SystemClock: Clock {
    let name = "system"
}
private struct FakeClock: Clock {
    let name = "fake"
}
private final class Store: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

extension DependencyContainer {
    fileprivate enum NamespaceSnapshotStores {}
    fileprivate typealias SnapshotStores = Namespace<NamespaceSnapshotStores>
    fileprivate var snapshotStores: SnapshotStores { namespace() }
}

extension DependencyContainer.SnapshotStores {
    fileprivate var store: SingletonFactory<Store> {
        get { resolve { Store(label: "default") } }
        set { inject(newValue) }
    }
}

@Suite(.container) struct SnapshotTests {
    let container = DependencyContainer()

    @Test func restoreBringsBackDefinitionsAndDropsLaterOnes() throws {
        container.register { SystemClock() as Clock }
        let snapshot = container.snapshot()
        container.register { FakeClock() as Clock }
        container.register { 42 }
        #expect(try (container.resolve() as Clock).name == "fake")
        container.restore(snapshot)
        #expect(try (container.resolve() as Clock).name == "system")
        #expect(throws: ResolutionError.self) { try container.resolve() as Int }
    }

    @Test func restoreBringsBackRemovedDefinitions() throws {
        container.register(tag: "main") { SystemClock() as Clock }
        let snapshot = container.snapshot()
        container.reset()
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "main") as Clock }
        container.restore(snapshot)
        #expect(try (container.resolve(tag: "main") as Clock).name == "system")
    }

    @Test func singletonsCreatedAfterTheSnapshotAreDropped() throws {
        let made = Counter()
        container.register(.singleton) { () -> Store in
            Store(label: "made \(made.increment())")
        }
        let snapshot = container.snapshot()
        let first: Store = try container.resolve()
        #expect(try container.resolve() as Store === first)
        container.restore(snapshot)
        let second: Store = try container.resolve()
        #expect(second !== first)
        #expect(made.count == 2)
        container.restore(snapshot)  // a snapshot can be restored again: still no instance in it
        #expect(try container.resolve() as Store !== second)
        #expect(made.count == 3)
    }

    @Test func singletonsCreatedBeforeTheSnapshotAreKept() throws {
        container.register(.singleton) { Store(label: "early") }
        let early: Store = try container.resolve()
        let snapshot = container.snapshot()
        container.register(.singleton) { Store(label: "late") }
        #expect(try (container.resolve() as Store).label == "late")
        container.restore(snapshot)
        #expect(try container.resolve() as Store === early)
    }

    @Test func accessorOverridesGoBackToTheSnapshot() {
        let snapshot = container.snapshot()
        container.snapshotStores.store = .single { Store(label: "override") }
        #expect(container.snapshotStores.store().label == "override")
        container.restore(snapshot)
        #expect(container.snapshotStores.store().label == "default")
    }

    @Test func overridesMadeBeforeTheSnapshotAreKept() {
        container.snapshotStores.store.replace { Store(label: "kept") }
        let snapshot = container.snapshot()
        container.snapshotStores.store.replace { Store(label: "later") }
        container.restore(snapshot)
        #expect(container.snapshotStores.store().label == "kept")
    }

    @Test func decoratorsAddedAfterTheSnapshotAreRemoved() {
        container.snapshotStores.store.decorate { Store(label: $0.label + "+a") }
        let snapshot = container.snapshot()
        container.snapshotStores.store.decorate { Store(label: $0.label + "+b") }
        #expect(container.snapshotStores.store().label == "default+a+b")
        container.restore(snapshot)
        #expect(container.snapshotStores.store().label == "default+a")
    }

    @Test func forwardingRegistrationsGoBackToTheSnapshot() throws {
        let snapshot = container.snapshot()
        container.register { FakeClock() }.implements(Clock.self)
        #expect(try (container.resolve() as Clock).name == "fake")
        container.restore(snapshot)
        #expect(throws: ResolutionError.self) { try container.resolve() as Clock }
    }

    @Test func collaboratorsStayAsTheyAre() throws {
        let other = DependencyContainer()
        other.register { SystemClock() as Clock }
        let snapshot = container.snapshot()
        container.collaborate(with: other)
        container.restore(snapshot)
        #expect(try (container.resolve() as Clock).name == "system")
    }

    @Test func aSnapshotOfAnotherContainerIsIgnored() throws {
        let other = DependencyContainer()
        other.register { FakeClock() as Clock }
        container.register { SystemClock() as Clock }
        container.restore(other.snapshot())
        #expect(try (container.resolve() as Clock).name == "system")
    }

    @Test func theRestoredGraphIsValid() {
        container.register { SystemClock() as Clock }
        let snapshot = container.snapshot()
        container.register { [unowned container] in Store(label: (try container.resolve() as Clock).name) }
        container.reset()
        container.restore(snapshot)
        expectValidGraph(container)
        #expect(expectResolves(Clock.self, in: container)?.name == "system")
    }

    @Test func theSharedContainerCanBeSnapshottedInsideTheTrait() {
        let shared = DependencyContainer.shared
        let snapshot = shared.snapshot()
        shared.snapshotStores.store.replace { Store(label: "mock") }
        #expect(shared.snapshotStores.store().label == "mock")
        shared.restore(snapshot)
        #expect(shared.snapshotStores.store().label == "default")
    }

    @Test func restoringWhileOtherThreadsResolveAndRegisterIsSafe() throws {
        container.register(.singleton) { Store(label: "snapshot") }
        let snapshot = container.snapshot()
        let container = container
        let labels = Collected<String>()
        let finished = runOnThreads(4) { index in
            for round in 0..<200 {
                switch (index + round) % 4 {
                case 0: container.restore(snapshot)
                case 1: container.register(.singleton) { Store(label: "later") }
                default: if let store = try? container.resolve() as Store { labels.append(store.label) }
                }
            }
        }
        #expect(finished)
        #expect(Set(labels.values).isSubset(of: ["snapshot", "later"]))
        container.restore(snapshot)
        #expect(try (container.resolve() as Store).label == "snapshot")
    }
}
