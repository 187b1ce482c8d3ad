internal import PlexusCore

// The fast path: the most common resolves — a published singleton, a `.unique` or `.shared` instance, a singleton's
// first construction — decided by reading one slot (in `DependencyContainer+Core.swift`, for a requested key and for
// a typed accessor; `FastStep+Accessors.swift` holds what the accessors' locked step finds under the lock for
// writing), then carried out by one dispatcher (`carryOut`, in the core). Anything else is left to the general path
// (`DependencyContainer+Lookup.swift`, `Slot+Produce.swift`).

/// What the fast path decided for one request.
enum FastStep {
    /// A published singleton was copied into the caller's storage (under its owner's lock, or while no write to the
    /// owner was in progress: `Protected.withBiasedRead`).
    case copied
    /// Run a slot's factory into the caller's storage: see `FastMake`.
    case make(FastMake)
    /// Leave the request to the general path.
    case general
}

/// A new instance the fast path makes: which slot, how it is kept alive meanwhile, in which container, at which key,
/// and how.
///
/// Every field is a plain value (`Borrowed` and `Owned` references, identifiers, flags), so that handing a step back
/// from the decision and switching on it copies bits: with references among its fields, every copy and destruction of
/// a step goes through outlined code that switches on each payload (`Benchmarks/profile unique/plexus` shows it).
struct FastMake {
    /// How the factory is run.
    enum Making {
        /// The factory, from the arguments given. `expecting` is the dynamic type of instances that need nothing
        /// after the factory (`ToStore` when the instance is to be stored as the general path stores it).
        case plain(expecting: ObjectIdentifier)
        /// The factory, from the arguments given, of a `.unique` or `.shared` definition whose instances of
        /// `expecting` need only their `@Injected` properties filled after it: filled right after the factory's frame
        /// when its scope runs its own work (`injectNow`), else stored as the general path stores a new instance,
        /// which queues them.
        case injecting(expecting: ObjectIdentifier)
        /// The factory, from arguments resolved in the slot's container (a definition that answers a request without
        /// arguments by auto-wiring); `expecting` as for `plain`.
        case autoWired(expecting: ObjectIdentifier)
        /// The singleton this graph has just claimed with the `Pending` (retained once for the step), built in a box
        /// of its own and stored as the general path stores it.
        case singleton(Owned<Pending>)
    }

    /// Where the key of the factory's frame (cycle paths, `requiredBy` chains) lives while it runs.
    enum KeyHome {
        /// The slot's own key (`Slot.pinnedKey`): the slot was registered under exactly the requested key, so no
        /// key lives in the caller's frame.
        case slot
        /// The first stored property of an object retained once for the step: the typed accessor entry's copy
        /// (`AccessorKeys.Entry.pinnedKey`), or the requested key as a local route keeps it
        /// (`RememberedRoute.pinnedKey`: a request this container's definition answers by auto-wiring). One case
        /// for both, so that the dispatcher inlined into every resolve has no more to hold in its frame.
        case kept(Owned<AnyObject>)

        /// `kept` by `keeper`, whose first stored property is the key, retained here.
        static func kept<Keeper: AnyObject>(by keeper: Borrowed<Keeper>) -> KeyHome {
            .kept(keeper.retained().erased)
        }

        /// The key that `keeper` (of `kept`) holds as its first stored property.
        static func key(keptBy keeper: Owned<AnyObject>) -> Pinned<DefinitionKey> {
            keeper.with { .firstStoredProperty(of: $0) }
        }
        /// The requested key, built again by the caller out of line (a collaborator's slot under another key, a
        /// `T?` answered by `T`).
        case requested
    }

    /// The slot whose factory runs. While it runs, the calling thread's hazard mark `mark` keeps it
    /// (the C layer's hazard marks, `PlexusHazards.h`: the owner's `release(_:)` keeps a marked slot until the mark is cleared, which
    /// saves the atomic increment and decrement of a reference); with a negative `mark`, a reference taken for the
    /// step does.
    // The fields are declared word-sized first: a step is copied from the decision to the dispatcher, and padding
    // after an enum's tag byte would add a word to every copy.
    let slot: Borrowed<Slot>
    let mark: Int
    /// The container whose slot it is, retained once for the step; `nil` for the container that decided the step
    /// (no reference to it is taken). A collaborator is weakly referenced by its routes, which makes each retain and
    /// release of it slow: it is retained once, where the route is read.
    let owner: Owned<DependencyContainer>?
    let key: KeyHome
    let making: Making
    /// Whether the request was `T?` (or `T!`) for the slot's `T`: the instance is made as a `T`, at `T`'s key, and
    /// wrapped in place.
    let wraps: Bool

    init(
        slot: Borrowed<Slot>, mark: Int, making: Making, owner: Owned<DependencyContainer>?, key: KeyHome,
        wraps: Bool
    ) {
        (self.slot, self.mark, self.making, self.owner, self.key, self.wraps) = (slot, mark, making, owner, key, wraps)
    }
}
