internal import PlexusSystem

/// Counts the changes that can move where a key resolves: a registration, a removal, a reset, a new forwarding
/// registration or collaboration, a container freed. Remembered routes through collaborators are valid while it does
/// not change.
enum Generation {
    /// Read on the resolve path without a lock: one atomic load, the same on every platform.
    static var current: Int { plexus_generation_current() }

    static func advance() { plexus_generation_advance() }
}

/// Where a key was last found through the collaborators of a container, so that the next lookup goes straight
/// there. A route never keeps a container or a singleton alive: it holds the owner weakly and the slot not at all.
///
/// The slot is only touched under its owner's lock, after checking that `Generation.current` still equals
/// `generation`: every change that removes a slot from a registry (a re-registration, a removal, a reset, a
/// restored snapshot) advances the generation under that registry's lock, so a route whose generation is current
/// there points at a slot its owner still holds. (A weak reference would give every slot a side table, and each
/// retain and release of a slot would then take the runtime's slow path.)
struct Route {
    /// The `Generation` the route was found at; set by the container that remembers it.
    var generation = 0
    weak var owner: DependencyContainer?
    /// Not retained, and never read before the route is validated (`slot(_:ifCurrentAt:)`): the slot may be gone.
    let slot: Unmanaged<Slot>
    let forward: Forward?
    /// The key the owner resolves: the requested one, or the wrapped type's for an `Optional` request.
    let requested: DefinitionKey
    /// Whether the owner auto-wires the factory's arguments.
    let autoWires: Bool

    /// `slot`, if nothing that could remove it changed since `generation`: the one check that makes an unretained
    /// slot safe to use. Call under the lock of the slot's owner.
    static func slot(_ slot: Unmanaged<Slot>, ifCurrentAt generation: Int) -> Slot? {
        Generation.current == generation ? slot.takeUnretainedValue() : nil
    }
}

/// A route as a container keeps it: an object whose fields the fast path reads in place, borrowed from the table
/// (copying a `Route` copies its weak reference through the runtime).
final class RememberedRoute {
    /// The first stored property, so that `keyPointer` finds it: keep it first.
    let requested: DefinitionKey
    let generation: Int
    weak var owner: DependencyContainer?
    let slot: Unmanaged<Slot>
    let forward: Forward?
    let autoWires: Bool
    /// Whether the route answers a `T?` or `T!` request with `T`'s definition (`requested` is `T`'s key): the fast
    /// path then wraps the instance in place.
    let wrapsInOptional: Bool
    /// Whether the route leads to the container that keeps it (a `T?` request answered by its own `T`; `owner` is
    /// then `nil`: a weak reference to itself would give the container a side table, and every retain and release
    /// of it would take the runtime's slow path). Only the fast path takes it; the general path looks up the
    /// container's own definitions again.
    let isLocal: Bool

    /// `requested` where it lies inside the route, valid as long as the route lives: a fast step that auto-wires
    /// through a local route points its factory's frame at it (`FastMake.KeyHome.kept`), as a step at its slot's own
    /// key points at `Slot.keyPointer`.
    var keyPointer: UnsafePointer<DefinitionKey> {
        UnsafePointer(_getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: DefinitionKey.self))
    }

    /// The owner, retained once for the caller to release, or `nil` when it is gone. Out of line, so that the caller
    /// reads it from a route it borrows without retaining the route around the weak load (inlined, the load retains it).
    @inline(never)
    func retainedOwner() -> Unmanaged<DependencyContainer>? {
        guard let owner else { return nil }
        return Unmanaged.passRetained(owner)
    }

    /// Remembers `route`, which answers `key` through a collaborator.
    init(_ route: Route, for key: DefinitionKey) {
        isLocal = false
        generation = route.generation
        owner = route.owner
        slot = route.slot
        forward = route.forward
        requested = route.requested
        autoWires = route.autoWires
        wrapsInOptional = route.requested != key
        assert(keyPointer.pointee == requested, "RememberedRoute.requested is not the first stored property")
    }

    /// Remembers that the request `key` is answered by the container's own `slot` for `requested`, as of
    /// `generation`: a `T?` request by the definition of `T` (`requested` is `T`'s key), or, with `autoWires`, a
    /// request without arguments by a definition whose factory takes some (`requested` is `key`).
    init(localSlot slot: Slot, requested: DefinitionKey, for key: DefinitionKey, generation: Int, autoWires: Bool) {
        isLocal = true
        self.generation = generation
        self.slot = Unmanaged.passUnretained(slot)
        forward = nil
        self.requested = requested
        self.autoWires = autoWires
        wrapsInOptional = requested != key
        assert(keyPointer.pointee == requested, "RememberedRoute.requested is not the first stored property")
    }
}
