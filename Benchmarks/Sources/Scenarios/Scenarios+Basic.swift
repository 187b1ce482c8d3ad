import Plexus
import Swinject

extension Scenario {
    /// A `.unique` object with no dependencies (Swinject: `.transient`), against calling its initialiser.
    static var unique: Scenario {
        Scenario(id: "unique", title: "unique, no dependencies") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
                return Runner { count in
                    for _ in 0..<count { blackHole(container.resolve(Leaf.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.unique) { Leaf() }
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as Leaf) }
                }
            }
        }
    }

    /// A singleton already made (Swinject: `.container` scope), against a hand-written lazy shared instance.
    static var singletonHit: Scenario {
        Scenario(id: "singleton", title: "singleton hit") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count { blackHole(shared.instance()) }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(ApiClient.self) { _ in ApiClient() }.inObjectScope(.container)
                _ = container.resolve(ApiClient.self)
                return Runner { count in
                    for _ in 0..<count { blackHole(container.resolve(ApiClient.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                _ = try? container.resolve() as ApiClient
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as ApiClient) }
                }
            }
        }
    }

    /// A `.unique` object registered under three tags, resolved by one of them (Swinject: `name:`).
    static var tagged: Scenario {
        Scenario(id: "tagged", title: "tagged resolve (1 of 3 tags)") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .swinject:
                let container = Swinject.Container()
                for name in ["dev", "prod", "test"] {
                    container.register(Leaf.self, name: name) { _ in Leaf() }.inObjectScope(.transient)
                }
                return Runner { count in
                    for _ in 0..<count { blackHole(container.resolve(Leaf.self, name: "prod")!) }
                }
            case .plexus:
                let container = DependencyContainer()
                for tag in ["dev", "prod", "test"] {
                    container.register(.unique, tag: tag) { Leaf() }
                }
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve(tag: "prod") as Leaf) }
                }
            }
        }
    }

    /// A `.unique` object made from three runtime arguments (Int, String, Double).
    static var threeArguments: Scenario {
        Scenario(id: "arguments", title: "3 runtime arguments") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for index in 0..<count { blackHole(Cell(id: index, title: "title", score: 1.5)) }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(Cell.self) { (_, id: Int, title: String, score: Double) in
                    Cell(id: id, title: title, score: score)
                }
                .inObjectScope(.transient)
                return Runner { count in
                    for index in 0..<count {
                        blackHole(container.resolve(Cell.self, arguments: index, "title", 1.5)!)
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.unique) { (id: Int, title: String, score: Double) in
                    Cell(id: id, title: title, score: score)
                }
                return Runner { count in
                    for index in 0..<count {
                        blackHole(try container.resolve(arguments: index, "title", 1.5) as Cell)
                    }
                }
            }
        }
    }
}

/// Holds a value for hand-written runners that read it from several threads.
package final class Holder<Value: Sendable>: Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}

/// The hand-written singleton: a lazy shared instance, a stored reference checked, retained and returned.
///
/// `instance()` is a call, as it is when the shared instance lives in another module. Reading a `let` inline
/// instead lets the optimizer hoist the retain and release out of the measured loop, leaving a bare load (about
/// 9 instructions, 1.6 ns): not what an app's lazy singleton costs.
final class LazyShared {
    private var stored: ApiClient?

    @inline(never)
    func instance() -> ApiClient {
        if let stored { return stored }
        let made = ApiClient()
        stored = made
        return made
    }
}
