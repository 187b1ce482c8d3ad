import Plexus

// Singleton hits in a container that also answers definitions the fast path leaves to the general path (a decorated
// one, a type reached by forwarding): what a lookup of the general path costs the reads around it. Such a lookup that only reads the
// container keeps the reader bias of the fast path on; one that turned it off would send the next reads to the lock.

/// A class registered with a decorator, which the general path applies.
final class DecoratedLeaf: Sendable {
    init() {}
}

/// What `ForwardedLeaf` is registered as, and resolved by forwarding, which the general path follows.
protocol LeafReading: AnyObject, Sendable {}
final class ForwardedLeaf: LeafReading {
    init() {}
}

extension Scenario {
    /// One decorated unique object and eight singleton hits per operation, against making the object and reading a
    /// lazy shared instance eight times by hand.
    static var singletonsBesideGeneralPath: Scenario {
        singletonsBeside(
            id: "singletons-beside-general", title: "1 decorated unique + 8 singleton hits", make: { DecoratedLeaf() },
            register: { container in
                container.register(.unique) { DecoratedLeaf() }
                container.decorate(DecoratedLeaf.self) { $0 }
            })
    }

    /// One unique object resolved as the protocol it is registered to implement (forwarding) and eight singleton
    /// hits per operation, against making the object and reading a lazy shared instance eight times by hand.
    static var singletonsBesideForwarding: Scenario {
        singletonsBeside(
            id: "singletons-beside-forwarding", title: "1 forwarded unique + 8 singleton hits",
            make: { ForwardedLeaf() as LeafReading },
            register: { container in
                container.register(.unique) { ForwardedLeaf() }.implements(LeafReading.self)
            })
    }

    /// `T` made (by hand) or resolved (registered by `register`) once, then eight singleton hits, per operation.
    private static func singletonsBeside<T>(
        id: String, title: String, make: @escaping () -> T, register: @escaping (DependencyContainer) -> Void
    ) -> Scenario {
        Scenario(id: id, title: title, contenders: [.hand, .plexus]) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count {
                        blackHole(make())
                        for _ in 0..<8 { blackHole(shared.instance()) }
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                register(container)
                _ = try? container.resolve() as ApiClient
                _ = try? container.resolve() as T
                return Runner { count in
                    for _ in 0..<count {
                        blackHole(try container.resolve() as T)
                        for _ in 0..<8 { blackHole(try container.resolve() as ApiClient) }
                    }
                }
            }
        }
    }
}
