import PlexusFactoryKit

// Factory code run through PlexusFactoryKit (its import changed from FactoryKit), beside the same declaration as a
// native typed accessor (`accessor-unique`, `accessor-singleton`): what a call through the product costs.

/// The product's container for these rows: declarations as a Factory app writes them.
private final class BenchmarkFactoryContainer: SharedContainer {
    static let shared = BenchmarkFactoryContainer()
    let manager = ContainerManager()
    var leaf: Factory<Leaf> { self { Leaf() } }
    var apiClient: Factory<ApiClient> { self { ApiClient() }.cached }
    var sharedClient: Factory<ApiClient> { self { ApiClient() }.singleton }
}

extension Scenario {
    /// A unique declaration called through PlexusFactoryKit, against calling the initializer.
    static var factoryKitUnique: Scenario {
        Scenario(id: "factorykit-unique", title: "PlexusFactoryKit, unique", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .plexus:
                let container = BenchmarkFactoryContainer()
                return Runner { count in
                    for _ in 0..<count { blackHole(container.leaf()) }
                }
            }
        }
    }

    /// A `.cached` declaration, already made, called through PlexusFactoryKit, against a lazy shared instance.
    static var factoryKitCached: Scenario {
        Scenario(id: "factorykit-cached", title: "PlexusFactoryKit, cached", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count { blackHole(shared.instance()) }
                }
            case .plexus:
                let container = BenchmarkFactoryContainer()
                blackHole(container.apiClient())
                return Runner { count in
                    for _ in 0..<count { blackHole(container.apiClient()) }
                }
            }
        }
    }

    /// A `.singleton` declaration, already made, called through PlexusFactoryKit, against a lazy shared instance:
    /// the singleton scope keeps its instances in a container of its own, which the declaration's record names.
    static var factoryKitSingleton: Scenario {
        Scenario(id: "factorykit-singleton", title: "PlexusFactoryKit, singleton", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count { blackHole(shared.instance()) }
                }
            case .plexus:
                let container = BenchmarkFactoryContainer()
                blackHole(container.sharedClient())
                return Runner { count in
                    for _ in 0..<count { blackHole(container.sharedClient()) }
                }
            }
        }
    }
}
