internal import PlexusCore

/// One definition as registered in one container. The scope cache lives here, so instances are cached per
/// definition (and per container), never per requested key.
///
/// Every `var` of a slot is written only while the owning container's registry lock is held, and read under it too,
/// except by the fast path's reads without the lock (`Protected.withBiasedRead`: `instance`, `published`, the recipe
/// flags, `typeInfo`), which only happen while no `withLock` is in progress: so those fields change only inside
/// `withLock`. The slot never runs user code under that lock.
final class Slot {
    /// The key the definition was first registered under in this container; names it in messages. The first stored
    /// property, so that `pinnedKey` finds it: keep it first.
    let key: DefinitionKey
    /// Whether `recipe` has no hooks and no decorators: read by the fast path, which then needs no reference to
    /// the recipe (reading `recipe` retains it). Right after `key`, with the other flags and `order`: the five share
    /// one word.
    private(set) var hasPlainRecipe: Bool
    /// Whether the fast path can make the instances of `recipe`: no decorators and no `@MainActor` hook, which the
    /// general path handles; plain hooks are queued by the fast path as by the general one.
    private(set) var hasDirectRecipe: Bool
    /// `typeInfo`'s flags.
    private var learnedIsResolvable = false
    private var learnedHasInjectedProperties = false
    private let orderStorage: Int32
    let blueprint: Blueprint
    /// Registration order in the container, for `bootstrap` and `validate`.
    var order: Int { Int(orderStorage) }
    /// The definition object, for identity checks: its blueprint (a ``Definition`` is its own).
    var definition: AnyObject { blueprint }
    var recipe: Recipe {
        didSet { (hasPlainRecipe, hasDirectRecipe) = (Self.isPlain(recipe), Self.isDirect(recipe)) }
    }
    /// The singleton, once published, retained by the slot (`instance`), which releases it when it replaces it or
    /// ends. Kept as an `Owned` word, so that the hit path copies the instance without retaining the box, as a strong
    /// reference read would.
    private var published: Owned<InstanceBox>?
    /// The weak singleton, once published.
    var weakInstance: AnyObject? {
        get { weakSingleton?.object }
        set {
            if let weakSingleton {
                weakSingleton.object = newValue
            } else if let newValue {
                weakSingleton = WeakSingleton(newValue)
            }
        }
    }
    /// Where `weakInstance` is held, made when a weak singleton is first published: a weak reference of the slot's
    /// own would cost every registration its initialization, and every slot's end its destruction.
    private var weakSingleton: WeakSingleton?
    /// The singleton being constructed, if any, with its value once its factory returned (`pendingValue`).
    var pending: Pending?
    /// `typeInfo`'s type.
    private var learnedType: ObjectIdentifier?
    /// How many keys of the owning registry's `slots` name this slot (one definition may be registered under several
    /// tags): when the last goes, so does the slot, without a scan of the table. Last, in the half word it needs.
    var keyCount: Int32 = 0

    /// The singleton, once published.
    var instance: InstanceBox? {
        get { published?.object }
        set {
            let replaced = published
            published = newValue.map { Owned(retaining: $0) }
            replaced?.release()
        }
    }

    /// The value of the singleton being constructed once its factory returned, visible to the constructing graph
    /// before it is published: kept by its claim (`pending`), as long as that is the slot's.
    var pendingValue: InstanceBox? {
        get { pending?.value }
        set { pending?.value = newValue }
    }

    /// What the last instance's dynamic type needs after creation (Resolvable, auto-injection).
    var typeInfo: TypeInfo? {
        get {
            learnedType.map {
                TypeInfo(
                    type: $0, isResolvable: learnedIsResolvable, hasInjectedProperties: learnedHasInjectedProperties)
            }
        }
        set {
            learnedType = newValue?.type
            learnedIsResolvable = newValue?.isResolvable ?? false
            learnedHasInjectedProperties = newValue?.hasInjectedProperties ?? false
        }
    }

    init(blueprint: Blueprint, recipe: Recipe, key: DefinitionKey, order: Int) {
        self.blueprint = blueprint
        self.recipe = recipe
        self.hasPlainRecipe = Self.isPlain(recipe)
        self.hasDirectRecipe = Self.isDirect(recipe)
        // Made from its parts, without the diagnostics a key in a table never carries: copying that optional
        // reference goes through `Optional`'s generic value witness (about 60 instructions a registration).
        self.key = DefinitionKey(type: key.type, typeOfArguments: key.typeOfArguments, storedTag: key.storedTag)
        // Registrations past two billion in one container are not expected; the order only sorts them.
        orderStorage = Int32(truncatingIfNeeded: order)
        Pinned.checkFirstStoredProperty(of: self, is: key)
    }

    deinit {
        published?.release()
    }

    /// `key` where it lies inside the slot, valid as long as the slot lives: a resolve that holds the slot points
    /// its factory's frame at it (typed accessors do), with no copy and no other object to keep alive. A class's stored
    /// properties are laid out in the order declared, after the object header, and `key` is the first.
    var pinnedKey: Pinned<DefinitionKey> { .firstStoredProperty(of: self) }

    var scope: ComponentScope { blueprint.scope }

    private static func isPlain(_ recipe: Recipe) -> Bool {
        recipe.hooks.isEmpty && recipe.decorators == nil
    }

    private static func isDirect(_ recipe: Recipe) -> Bool {
        recipe.decorators == nil && !recipe.needsMainActor
    }

    /// Copies the published singleton into `result` without reference counting the box (the lock keeps it alive);
    /// `false` when none is published. Must be called under the owner's lock or its reader bias.
    @inline(__always)
    func copyPublished(into result: InstanceStorage) -> Bool {
        guard let published else { return false }
        published.with { $0.copy(into: result) }
        return true
    }

    /// Decides how to get an instance. Must be called under the owner's lock.
    func acquire(_ requested: DefinitionKey, graph: ResolutionGraph) -> Acquisition {
        switch blueprint.scope {
        case .unique, .shared:
            return .construct(Construction(recipe: recipe, claim: nil, typeInfo: typeInfo))
        case .singleton, .eagerSingleton, .weakSingleton, .cached:
            if let instance { return .cached(instance) }
            if let object = weakInstance {
                // A value-type weak singleton is held through its box, which its graph keeps (see `commit`).
                if let box = object as? InstanceBox { return .cached(box) }
                return .cachedObject(object)
            }
            if let pending {
                if pending.owner == graph.id, let pendingValue {
                    graph.usesUnfinished(pending)
                    return .cached(pendingValue)
                }
                return .wait(pending)
            }
            let claim = Pending(owner: graph.id, slot: ObjectIdentifier(self), key: requested)
            pending = claim
            return .construct(Construction(recipe: recipe, claim: claim, typeInfo: typeInfo))
        }
    }

    /// Publishes the value built under `pending` as the singleton. Called under the owner's lock; returns the box of
    /// a weak singleton, which the graph held until now, to be released after the lock.
    func commit(_ pending: Pending) -> InstanceBox? {
        guard self.pending === pending else { return nil }
        self.pending = nil
        guard let value = pending.value else { return nil }
        pending.value = nil
        if blueprint.scope == .weakSingleton {
            // The graph holds the returned box until its outermost resolve ends. An instance of a class is held
            // weakly itself, so it stays shared while anyone keeps it, and so is the object an `Optional` wraps
            // (`deliver` wraps it again); a value has no identity to hold, so its box is (`value as AnyObject` would
            // make a new box that dies at once, and the graph would make the value again).
            weakInstance = Self.object(in: value.value) ?? value
            return value
        }
        instance = value
        return nil
    }

    /// The object a weak singleton's instance is: the instance of a class, or the object an `Optional` (of any
    /// depth) wraps; `nil` for a value or an empty `Optional`.
    private static func object(in instance: Any) -> AnyObject? {
        if Swift.type(of: instance) is AnyClass { return instance as AnyObject }
        guard let optional = instance as? any OptionalType, let wrapped = optional.wrappedValue else { return nil }
        return object(in: wrapped)
    }

    /// Drops what the slot caches because what makes its instances changed (a decorator added, the definition
    /// registered again): the published instance, and the construction in progress, which is then never
    /// published (its graph keeps what it made; graphs waiting for it wake when it ends and make a new one). Called
    /// under the owner's lock; returns what it dropped, to be released after the lock.
    func dropCached() -> Cached {
        let cached = Cached(instance: instance, weakInstance: weakInstance, pendingValue: pendingValue)
        pendingValue = nil
        (instance, weakInstance, pending) = (nil, nil, nil)
        return cached
    }

    /// What a slot cached, dropped from it (`dropCached()`, a trim): the user's instances, released after the lock.
    struct Cached {
        var instance: InstanceBox?
        var weakInstance: AnyObject?
        var pendingValue: InstanceBox?
    }

    /// Forgets the construction in progress without publishing it. Called under the owner's lock; returns what
    /// it dropped, to be released after the lock (a `deinit` is user code).
    func rollBack(_ pending: Pending) -> InstanceBox? {
        guard self.pending === pending else { return nil }
        self.pending = nil
        defer { pending.value = nil }
        return pending.value
    }
}

/// A weak singleton's instance, held weakly (`Slot.weakInstance`); changed only under the lock of the slot's owner.
private final class WeakSingleton {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// A singleton under construction by one resolution graph. Other graphs wait on `signal` until it is committed
/// or rolled back.
///
/// `@unchecked Sendable`: `value` is read and written only under the lock of the slot's owner, as the slot's own
/// fields are; everything else is a `let` of a sendable type.
final class Pending: @unchecked Sendable {
    /// The graph constructing it.
    let owner: GraphID
    /// The slot whose factory runs.
    let slot: ObjectIdentifier
    /// The requested key, for cycle paths.
    let key: DefinitionKey
    let signal = ConstructionSignal()
    /// The value its factory made, until it is published or rolled back (`Slot.pendingValue`).
    var value: InstanceBox?

    init(owner: GraphID, slot: ObjectIdentifier, key: DefinitionKey) {
        self.owner = owner
        self.slot = slot
        self.key = key
    }
}

/// What a slot says, under its container's lock, when asked for an instance.
enum Acquisition {
    /// A singleton already made, or one made earlier in the same graph.
    case cached(InstanceBox)
    /// A weak singleton still alive.
    case cachedObject(AnyObject)
    /// Call the factory.
    case construct(Construction)
    /// Another graph is constructing the singleton.
    case wait(Pending)
}

/// What a new instance is made with, as `Slot.acquire` decided under its owner's lock.
struct Construction {
    /// The definition's hooks and decorators at that moment.
    let recipe: Recipe
    /// Set when this graph now constructs the singleton.
    let claim: Pending?
    /// What the last instance's dynamic type needed after creation.
    let typeInfo: TypeInfo?
}
