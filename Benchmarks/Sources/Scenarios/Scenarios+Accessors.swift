import Dispatch
import Foundation
import Plexus

// Typed accessors: the same objects as `unique` and `singleton`, read through a computed property of the
// container that returns a `Factory`, called as a function. Swinject has no counterpart; swift-dependencies' runners
// are the `@Dependency` reads of `unique` and `singleton` (attached by PeerScenarios).

extension DependencyContainer {
    /// A new ``Leaf`` per call.
    var benchmarkLeaf: Factory<Leaf> { self { Leaf() } }

    /// One ``ApiClient``, kept by the container.
    var benchmarkApiClient: Factory<ApiClient> { self { ApiClient() }.singleton }

    /// A new ``Cell`` per call, made from its id.
    var benchmarkCell: ParameterFactory<Int, Cell> { self { id in Cell(id: id, title: "title", score: 1.5) } }

    /// One ``Cell`` per id, kept by the container.
    var benchmarkKeptCell: ParameterFactory<Int, Cell> {
        self { id in Cell(id: id, title: "title", score: 1.5) }.singleton
    }

    /// One ``ApiClient``, made by an `async` factory and kept by the container.
    var benchmarkAsyncApiClient: AsyncFactory<ApiClient> { self { ApiClient() }.singleton }

    /// A new ``Leaf`` per call, made on the main actor.
    var benchmarkMainActorLeaf: MainActorFactory<Leaf> { self { @MainActor in Leaf() } }
}

extension Scenario {
    /// A typed accessor with `.unique` storage, against calling the initialiser.
    static var accessorUnique: Scenario {
        Scenario(id: "accessor-unique", title: "typed accessor, unique", contenders: [.hand, .plexus]) { contender in
            switch contender {
            case .dependencies, .swinject: return nil  // swift-dependencies: attached by PeerScenarios
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .plexus:
                let container = DependencyContainer()
                return Runner { count in
                    for _ in 0..<count { blackHole(container.benchmarkLeaf()) }
                }
            }
        }
    }

    /// A typed accessor with `.singleton` storage, already made, against a hand-written lazy shared instance.
    static var accessorSingleton: Scenario {
        Scenario(id: "accessor-singleton", title: "typed accessor, singleton", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil  // swift-dependencies: attached by PeerScenarios
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count { blackHole(shared.instance()) }
                }
            case .plexus:
                let container = DependencyContainer()
                blackHole(container.benchmarkApiClient())
                return Runner { count in
                    for _ in 0..<count { blackHole(container.benchmarkApiClient()) }
                }
            }
        }
    }

    /// A typed accessor taking a runtime argument, `.unique`, against calling the initialiser with it.
    static var accessorParameterUnique: Scenario {
        Scenario(
            id: "accessor-parameter-unique", title: "ParameterFactory, unique", contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                return Runner { count in
                    for index in 0..<count { blackHole(Cell(id: index, title: "title", score: 1.5)) }
                }
            case .plexus:
                let container = DependencyContainer()
                return Runner { count in
                    for index in 0..<count { blackHole(container.benchmarkCell(index)) }
                }
            }
        }
    }

    /// A typed accessor taking a runtime argument, `.singleton`, hit for one of 8 ids already made, against a
    /// hand-written dictionary of instances per id behind a lock.
    static var accessorParameterSingleton: Scenario {
        Scenario(
            id: "accessor-parameter-singleton", title: "ParameterFactory, singleton per argument",
            contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let cells = CellsPerID()
                for id in 0..<8 { blackHole(cells.cell(id)) }
                return Runner { count in
                    for index in 0..<count { blackHole(cells.cell(index & 7)) }
                }
            case .plexus:
                let container = DependencyContainer()
                for id in 0..<8 { blackHole(container.benchmarkKeptCell(id)) }
                return Runner { count in
                    for index in 0..<count { blackHole(container.benchmarkKeptCell(index & 7)) }
                }
            }
        }
    }

    /// A typed accessor taking a runtime argument, `.singleton`, called with an id never seen before each time, so
    /// every operation makes and keeps one more instance; against the same hand-written dictionary. The count per
    /// operation stays flat as `--count` grows when a new id costs O(1) amortized.
    static var accessorParameterSingletonNewIDs: Scenario {
        Scenario(
            id: "accessor-parameter-singleton-new", title: "ParameterFactory, singleton per new argument",
            contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let cells = CellsPerID()
                var next = 0
                return Runner { count in
                    for _ in 0..<count {
                        next += 1
                        blackHole(cells.cell(next))
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                var next = 0
                return Runner { count in
                    for _ in 0..<count {
                        next += 1
                        blackHole(container.benchmarkKeptCell(next))
                    }
                }
            }
        }
    }

    /// An `AsyncFactory` singleton already made, awaited in a task, against a hand-written lazy shared instance
    /// awaited in the same kind of task. The work runs in the task, on a thread where callgrind's count (which
    /// follows `profileSteadyState`) does not reach: its figure is a time, `PlexusCompare --only` or the run time of
    /// `PlexusProfile --profile async-accessor-singleton/plexus --count N`.
    static var asyncAccessorSingleton: Scenario {
        Scenario(
            id: "async-accessor-singleton", title: "AsyncFactory, singleton", contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LockedLazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    try inTask {
                        for _ in 0..<count { blackHole(await shared.instanceAwaited()) }
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                try? inTask { blackHole(try await container.benchmarkAsyncApiClient()) }
                return Runner { count in
                    try inTask {
                        for _ in 0..<count { blackHole(try await container.benchmarkAsyncApiClient()) }
                    }
                }
            }
        }
    }

    /// A `MainActorFactory`, `.unique`, called on the main actor, against calling the initialiser there. Only where
    /// the runner is called on the main thread (the benchmark executables' top-level code).
    static var accessorMainActor: Scenario {
        Scenario(id: "accessor-main-actor", title: "MainActorFactory, unique", contenders: [.hand, .plexus]) {
            contender in
            guard Thread.isMainThread else { return nil }
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                return Runner { count in
                    MainActor.assumeIsolated {
                        for _ in 0..<count { blackHole(makeLeafOnTheMainActor()) }
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                return Runner { count in
                    MainActor.assumeIsolated {
                        for _ in 0..<count { blackHole(container.benchmarkMainActorLeaf()) }
                    }
                }
            }
        }
    }
}

/// The hand-written per-argument singleton: one instance per id, looked up under a lock.
private final class CellsPerID: @unchecked Sendable {  // `cells` is only touched under `lock`
    private let lock = NSLock()
    private var cells: [Int: Cell] = [:]

    @inline(never)
    func cell(_ id: Int) -> Cell {
        lock.lock()
        defer { lock.unlock() }
        if let cell = cells[id] { return cell }
        let made = Cell(id: id, title: "title", score: 1.5)
        cells[id] = made
        return made
    }
}

/// The hand-written lazy shared instance, safe to read from tasks: made once under a lock.
private final class LockedLazyShared: @unchecked Sendable {  // `stored` is only touched under `lock`
    private let lock = NSLock()
    private var stored: ApiClient?

    @inline(never)
    func instance() -> ApiClient {
        lock.lock()
        defer { lock.unlock() }
        if let stored { return stored }
        let made = ApiClient()
        stored = made
        return made
    }

    /// `instance()` behind an `async` call, as a caller of an async accessor awaits one.
    @inline(never)
    func instanceAwaited() async -> ApiClient { instance() }
}

/// Makes a ``Leaf`` on the main actor.
@MainActor
@inline(never)
private func makeLeafOnTheMainActor() -> Leaf { Leaf() }
