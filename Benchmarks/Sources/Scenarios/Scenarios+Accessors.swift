import Plexus

// Typed accessors: the same objects as `unique` and `singleton`, read through a computed property of the
// container that returns a `Factory`, called as a function. Swinject has no counterpart; swift-dependencies' runners
// are the `@Dependency` reads of `unique` and `singleton` (attached by PeerScenarios).

extension DependencyContainer {
    /// A new ``Leaf`` per call.
    var benchmarkLeaf: Factory<Leaf> { self { Leaf() } }

    /// One ``ApiClient``, kept by the container.
    var benchmarkApiClient: Factory<ApiClient> { self { ApiClient() }.singleton }
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
}
