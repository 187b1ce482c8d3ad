#if !canImport(Darwin) && canImport(Synchronization)
    import Synchronization
#endif

/// Counts the changes that can move where a key resolves: a registration, a removal, a reset, a new forwarding
/// registration or collaboration, a container freed. Remembered routes through collaborators are valid while it does
/// not change.
enum Generation {
    #if !canImport(Darwin) && canImport(Synchronization)
        // A lock-free read on the resolve path: resolves only load it; changes increment it.
        private static let counter = Atomic<Int>(0)

        static var current: Int { counter.load(ordering: .acquiring) }

        static func advance() {
            counter.add(1, ordering: .acquiringAndReleasing)
        }
    #else
        // Apple platforms back to iOS 13 have no `Synchronization`; a lock keeps it correct there.
        private static let counter = Protected(0)

        static var current: Int { counter.withLock { $0 } }

        static func advance() {
            counter.withLock { $0 += 1 }
        }
    #endif
}

/// Where a key was last found through the collaborators of a container, so that the next lookup goes straight
/// there. Holds the owner and the slot weakly: a route never keeps a container or a singleton alive.
struct Route {
    /// The `Generation` the route was found at; set by the container that remembers it.
    var generation = 0
    weak var owner: DependencyContainer?
    weak var slot: Slot?
    let forward: Forward?
    /// The key the owner resolves: the requested one, or the wrapped type's for an `Optional` request.
    let requested: DefinitionKey
    /// Whether the owner auto-wires the factory's arguments.
    let autoWires: Bool
}
