import Plexus

// The process-wide container: what reading `DependencyContainer.shared` costs, and a singleton accessor reached
// through it, against the same accessor on a container held in a local.

/// A process-wide instance read by hand: a `static let`.
private enum HandShared {
    final class Box: Sendable {}
    static let container = Box()
}

extension Scenario {
    /// Reading `DependencyContainer.shared`, against reading a `static let` by hand.
    static var sharedRead: Scenario {
        Scenario(id: "shared-read", title: "DependencyContainer.shared read", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(HandShared.container) }
                }
            case .plexus:
                return Runner { count in
                    for _ in 0..<count { blackHole(DependencyContainer.shared) }
                }
            }
        }
    }

    /// A singleton accessor through `DependencyContainer.shared`, against `accessor-singleton` (a local container).
    static var sharedAccessorSingleton: Scenario {
        Scenario(
            id: "shared-accessor-singleton", title: "typed accessor, singleton, through .shared",
            contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count { blackHole(shared.instance()) }
                }
            case .plexus:
                blackHole(DependencyContainer.shared.benchmarkApiClient())
                return Runner { count in
                    for _ in 0..<count { blackHole(DependencyContainer.shared.benchmarkApiClient()) }
                }
            }
        }
    }
}
