internal import PlexusCore

/// A container's answer generation: what its remembered routes and typed accessors' answers are valid for. Advanced
/// by every change that can move where a key resolves in the container: a registration, a removal, a reset, a
/// forwarding registration, a decorator, a collaboration, a restored snapshot, a container freed; in the container
/// itself or in one it collaborates with, directly or through others. So a change in one module's container leaves
/// the routes of containers that do not reach it alone.
///
/// Each container that collaborates with this one's container is a dependent (`addDependent`): an advance advances
/// the dependents too, transitively, before it returns, so under the lock of the container that changed, every
/// container that could have remembered an answer through it already sees a new generation. Each value is new in the
/// process (`GenerationCell`, the core's ProcessWide.swift: drawn from one process-wide sequence), so a value, once
/// left, never comes back.
///
/// `@unchecked Sendable`: the value is a `GenerationCell`, read and written only atomically; `dependents` is only read
/// or changed while `Epoch.links` is held. Nothing here takes that lock in `deinit`: an epoch's last reference may be
/// a temporary released while the lock is held (a weak reference loaded there).
final class Epoch: @unchecked Sendable {
    private let cell = GenerationCell()
    /// The epochs of the containers that collaborate with this one's; read and changed only under `links`.
    private var dependents: [WeakEpoch] = []

    deinit { cell.deallocate() }

    /// The value now, read without a lock: one atomic load.
    var current: Int { cell.current }

    /// What the resolve path reads the generation through: the value's address, valid while the epoch lives (its
    /// container keeps both), so that a read retains nothing. (A weak reference to an epoch, as its dependents are
    /// held, gives it a side table, and every retain of it would take the runtime's slow path.)
    var reader: Reader { Reader(cell: cell) }

    /// The address of an epoch's value (see `reader`): the cell stays allocated while the epoch lives, which whoever
    /// holds a reader keeps alive.
    struct Reader: Sendable {
        fileprivate let cell: GenerationCell

        /// The value now: one atomic load.
        var current: Int { cell.current }
    }

    /// Advances this generation and its dependents'. Called under the lock of the registry that changed.
    func advance() {
        cell.advance()
        guard cell.hasDependents else { return }
        // Released after the lock: a dependent's last reference may be the one collected here.
        let reached = Self.links.withLock { _ in reachedDependents() }
        for epoch in reached { epoch.cell.advance() }
    }

    /// Makes `dependent` advance whenever this generation does (its container collaborates with this one's).
    func addDependent(_ dependent: Epoch) {
        guard dependent !== self else { return }
        Self.links.withLock { _ in
            dependents.removeAll { $0.epoch == nil }
            if !dependents.contains(where: { $0.epoch === dependent }) {
                dependents.append(WeakEpoch(epoch: dependent))
            }
        }
        cell.noteDependents()
    }

    /// The epochs that depend on this one, directly or through others, each once, this one not included. Call under
    /// `links`.
    private func reachedDependents() -> [Epoch] {
        var reached: [Epoch] = []
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var index = -1
        var current = self
        while true {
            for case let dependent? in current.dependents.map(\.epoch)
            where seen.insert(ObjectIdentifier(dependent)).inserted {
                reached.append(dependent)
            }
            index += 1
            guard index < reached.count else { return reached }
            current = reached[index]
        }
    }

    private struct WeakEpoch {
        weak var epoch: Epoch?
    }

    /// Guards every epoch's `dependents` (a change of them is rare: a collaboration).
    private static let links = Protected(0)
}

/// Where a key was last found through the collaborators of a container, so that the next lookup goes straight
/// there. A route never keeps a container or a singleton alive: it holds the owner weakly and the slot not at all.
///
/// The slot is only touched under its owner's lock, after checking that the `Epoch` of the container that remembered
/// the route still equals `generation`: every change that removes a slot from a registry (a re-registration, a
/// removal, a reset, a restored snapshot) advances that registry's epoch and its dependents', the container that
/// remembered the route among them, under that registry's lock, so a route whose generation is current there points
/// at a slot its owner still holds. (A weak reference would give every slot a side table, and each
/// retain and release of a slot would then take the runtime's slow path.)
struct Route {
    /// The `Epoch` value the route was found at; set by the container that remembers it.
    var generation = 0
    weak var owner: DependencyContainer?
    /// Not retained, and never read before the route is validated (`slot(_:ifCurrentAt:)`): the slot may be gone.
    let slot: Borrowed<Slot>
    let forward: Forward?
    /// The key the owner resolves: the requested one, or the wrapped type's for an `Optional` request.
    let requested: DefinitionKey
    /// Whether the owner auto-wires the factory's arguments.
    let autoWires: Bool

    /// `slot`, if nothing that could remove it changed since `generation` of `epoch`, the epoch of the container that
    /// remembered the route: the one check that makes an unretained slot safe to use. Call under the lock (or reader
    /// bias) of the slot's owner.
    static func slot(_ slot: Borrowed<Slot>, ifCurrentAt generation: Int, of epoch: Epoch.Reader) -> Slot? {
        epoch.current == generation ? slot.object : nil
    }
}

/// A route as a container keeps it: an object whose fields the fast path reads in place, borrowed from the table
/// (copying a `Route` copies its weak reference through the runtime).
final class RememberedRoute {
    /// The first stored property, so that `pinnedKey` finds it: keep it first.
    let requested: DefinitionKey
    let generation: Int
    weak var owner: DependencyContainer?
    let slot: Borrowed<Slot>
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
    /// key points at `Slot.pinnedKey`.
    var pinnedKey: Pinned<DefinitionKey> { .firstStoredProperty(of: self) }

    /// The owner, retained once for the caller to release, or `nil` when it is gone. Out of line, so that the caller
    /// reads it from a route it borrows without retaining the route around the weak load (inlined, the load retains it).
    @inline(never)
    func retainedOwner() -> Owned<DependencyContainer>? {
        guard let owner else { return nil }
        return Owned(retaining: owner)
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
        Pinned.checkFirstStoredProperty(of: self, is: requested)
    }

    /// Remembers that the request `key` is answered by the container's own `slot` for `requested`, as of
    /// `generation`: a `T?` request by the definition of `T` (`requested` is `T`'s key), or, with `autoWires`, a
    /// request without arguments by a definition whose factory takes some (`requested` is `key`).
    init(localSlot slot: Slot, requested: DefinitionKey, for key: DefinitionKey, generation: Int, autoWires: Bool) {
        isLocal = true
        self.generation = generation
        self.slot = Borrowed(slot)
        forward = nil
        self.requested = requested
        self.autoWires = autoWires
        wrapsInOptional = requested != key
        Pinned.checkFirstStoredProperty(of: self, is: requested)
    }
}
