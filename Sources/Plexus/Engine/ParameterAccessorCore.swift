internal import PlexusCore

/// What `ParameterFactory` resolves through: the fast path of typed accessors with the argument handed over in place,
/// and the blueprint of its declared default and overrides, specialized by the accessor's caller.
@usableFromInline
enum ParameterAccessorCore<P: Sendable, T> {
    /// The instance for `argument`, as `ParameterFactory.resolve(_:)` gives it.
    ///
    /// As for `AccessorCore.resolve`: the instance is made in `AccessorStorage.instance`'s room and the argument is
    /// passed by its address, so the call is not generic; anything the fast path cannot answer goes to
    /// `resolveParameterAccessor`.
    @inlinable
    static func resolve(
        _ container: DependencyContainer, _ site: AccessorSite, _ storage: ComponentScope,
        _ make: @escaping @Sendable (P) throws -> T, _ argument: P
    ) throws -> T {
        let instance = try AccessorStorage.instance(of: T.self) { result in
            try withUnsafePointer(to: argument) { try container.tryFastAccessor(site, arguments: $0, into: result) }
        }
        if let instance { return instance }
        return try container.resolveParameterAccessor(
            site, argument, storage: storage, make: make, build: factory(_:keeping:))
    }

    /// The blueprint factory of a declared default or override: `make` called with the argument at the first
    /// pointer, its instance moved into the second; for singleton storage, the instance `instances` keeps for the
    /// argument's value.
    ///
    /// Specialized by the accessor's caller (the function itself captures nothing), so that each instance is made,
    /// and each argument compared, without going through the value witnesses of `P` and `T`.
    @inlinable
    static func factory(
        _ make: @escaping @Sendable (P) throws -> T, keeping instances: ParameterInstances?
    ) -> BlueprintFactory {
        guard let instances else {
            return { _, arguments, result in
                result.assumingMemoryBound(to: T.self).initialize(
                    to: try make(arguments.assumingMemoryBound(to: P.self).pointee))
            }
        }
        return { _, arguments, result in
            let argument = arguments.assumingMemoryBound(to: P.self).pointee
            if let hashable = argument as? any Hashable {
                try kept(hashable, in: instances, arguments: arguments, into: result)
            } else if let hashable = hashableArgument(argument) {
                try kept(hashable, in: instances, arguments: arguments, into: result)
            } else {
                result.assumingMemoryBound(to: T.self).initialize(to: try instances.unkept(argument, make: make))
            }
        }
    }

    /// Writes into `result` the instance `instances` keeps for the argument's value `hashable` (the argument at
    /// `arguments`, as `H`), comparing arguments as `H`, without any lock held: the published instance of the first
    /// entry with the hash, kept if its argument is this one; else the value's slot resolved by the claim protocol.
    @inlinable
    static func kept<H: Hashable>(
        _ hashable: H, in instances: ParameterInstances, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        let hash = hashable.hashValue
        if let entry = instances.published(hash, into: result) {
            if let entry = entry as? ArgumentSlot<H>, entry.argument == hashable { return }
            instances.destroy(result)
        }
        try instances.resolve(
            hash: hash, arguments: arguments, into: result,
            matches: { ($0 as? ArgumentSlot<H>)?.argument == hashable },
            newEntry: { ArgumentSlot(hash: hash, argument: hashable, in: instances) })
    }
}

/// The slot of one argument value of a singleton `ParameterFactory`, with the value's hash; never changed after
/// `init`.
// `@unchecked Sendable`: nothing in it changes after `init`; the slot it names is only touched under its owner's lock,
// as any container's slots are.
@usableFromInline
class KeptEntry: @unchecked Sendable {
    let hash: Int
    let slot: Slot

    @usableFromInline
    init(hash: Int, in instances: ParameterInstances) {
        self.hash = hash
        slot = instances.newSlot()
    }
}

/// A slot under its argument's value, typed by the argument's own type so that finding it again hashes and compares
/// the argument as itself, not as `AnyHashable`.
@usableFromInline
final class ArgumentSlot<H: Hashable>: KeptEntry, @unchecked Sendable {
    @usableFromInline let argument: H

    @inlinable
    init(hash: Int, argument: H, in instances: ParameterInstances) {
        self.argument = argument
        super.init(hash: hash, in: instances)
    }
}

/// Entries by hash, grown in place under the lock of whoever keeps them: a new entry costs O(1) amortized (the
/// buckets double when three quarters full, rehashed from the hashes kept, so no user code runs under the lock). A
/// bucket a reader copied out is copied, not changed, when an entry is added to it meanwhile.
struct KeptEntries {
    private var buckets: ContiguousArray<ContiguousArray<KeptEntry>> = []
    private var count = 0

    /// The entries whose hash falls in the bucket of `hash`.
    func bucket(_ hash: Int) -> ContiguousArray<KeptEntry> {
        buckets.isEmpty ? [] : buckets[hash & (buckets.count - 1)]
    }

    /// Adds `entry`, growing the buckets when three quarters full.
    mutating func insert(_ entry: KeptEntry) {
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        buckets[entry.hash & (buckets.count - 1)].append(entry)
        count += 1
    }

    /// The first entry whose hash is `hash`, if any.
    @inline(__always)
    func first(_ hash: Int) -> KeptEntry? {
        guard !buckets.isEmpty else { return nil }
        for entry in buckets[hash & (buckets.count - 1)] where entry.hash == hash { return entry }
        return nil
    }

    /// Whether `entry` (by identity) is here.
    func contains(_ entry: KeptEntry) -> Bool {
        !buckets.isEmpty && buckets[entry.hash & (buckets.count - 1)].contains { $0 === entry }
    }

    /// Removes `entry` (by identity); `false` if it is not here.
    mutating func remove(_ entry: KeptEntry) -> Bool {
        guard !buckets.isEmpty else { return false }
        let index = entry.hash & (buckets.count - 1)
        guard let position = buckets[index].firstIndex(where: { $0 === entry }) else { return false }
        buckets[index].remove(at: position)
        count -= 1
        return true
    }

    private mutating func grow() {
        let size = Swift.max(16, buckets.count * 2)
        var grown = ContiguousArray(repeating: ContiguousArray<KeptEntry>(), count: size)
        for bucket in buckets {
            for entry in bucket { grown[entry.hash & (size - 1)].append(entry) }
        }
        buckets = grown
    }
}

/// What one definition of a singleton `ParameterFactory` key keeps: a slot per argument value, in a table by
/// argument that only maps values to slots. Each slot is a singleton of the definition's factory, owned by a container
/// of its own (`store`), so that the claim protocol makes its instance once across threads, has the others wait, rolls
/// back a failed construction and publishes the instance when its graph completes. A reset, an override or a
/// decorator of the key drops the table as a whole; this object stays, captured by the definition's factory.
@usableFromInline
final class ParameterInstances: Sendable {
    let key: DefinitionKey
    /// Owns the slots; its registry's lock guards their state and `table` (the registry itself stays empty).
    private let store: DependencyContainer
    /// What every slot makes: the definition's factory, taking the argument.
    private let blueprint: Blueprint
    /// The slots by argument. Read and changed only under `store`'s registry lock (`nonisolated(unsafe)`), so that
    /// one read finds a value's slot and copies its published instance; no access spans user code, so none is
    /// checked for exclusivity at run time. Finding an argument calls the argument's `hash(into:)` and `==`, user
    /// code, which runs outside the lock on entries copied out of it.
    @exclusivity(unchecked) nonisolated(unsafe) private var table = Table()

    private struct Table {
        var entries = KeptEntries()
        /// Advanced by every entry added and every drop: an entry is added only to the table its bucket was read
        /// from, so that one value never gets two slots, nor a slot the decorators of before a drop.
        var version = 0
    }

    init(key: DefinitionKey, name: String, blueprint: Blueprint) {
        self.key = key
        self.blueprint = blueprint
        store = DependencyContainer(name: name)
    }

    /// A slot for a new argument value, decorated by the decorators of the key in the container whose factory is
    /// running (read after the table: a decorator added later drops the table, and the slot is not added).
    func newSlot() -> Slot {
        let decorators = DependencyContainer.runningFactoryDecorators(of: key)
        return Slot(
            blueprint: blueprint,
            recipe: decorators.map { Recipe.plain.with(decorators: $0) } ?? Recipe.plain, key: key, order: 0)
    }

    /// The first entry with `hash`, after copying its published instance into `result`; `nil` if it has none (or
    /// there is no such entry). One read of the table, with the store's reader bias when it is on.
    @usableFromInline
    func published(_ hash: Int, into result: UnsafeMutableRawPointer) -> KeptEntry? {
        let result = InstanceStorage(uninitialized: result, for: blueprint.type)
        func read(_: UnsafePointer<Registry>) -> KeptEntry? {
            guard let first = table.entries.first(hash), first.slot.copyPublished(into: result) else { return nil }
            return first
        }
        // Borrowed: `self` keeps the store, whose registry no one replaces.
        return Borrowed(store.registry).with { registry in
            registry.withBiasedRead(read) ?? registry.withLockKeepingReaders(read)
        }
    }

    /// Destroys the instance `published` copied into `result`, whose entry was another argument's.
    @usableFromInline
    func destroy(_ result: UnsafeMutableRawPointer) {
        blueprint.ops.destroy(InstanceStorage(initialized: result, for: blueprint.type))
    }

    /// Writes into `result` the instance kept for the argument at `arguments`, whose hash is `hash`, found by
    /// `matches` (comparing arguments) and made by the claim protocol if it is not published yet. An entry
    /// (`newEntry`) is added only if the table did not change since its bucket was read, else the bucket is read
    /// again, as it is when the entry found left the table before its slot was claimed.
    @usableFromInline
    func resolve(
        hash: Int, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer, matches: (KeptEntry) -> Bool,
        newEntry: () -> KeptEntry
    ) throws {
        let (arguments, result) = (ResolveArguments(at: arguments), InstanceStorage(uninitialized: result, for: nil))
        while true {
            let (bucket, version) = store.registry.withLockKeepingReaders { _ in
                (table.entries.bucket(hash), table.version)
            }
            var entry = bucket.first { $0.hash == hash && matches($0) }
            if entry == nil {
                let made = newEntry()
                entry = store.registry.withLock { _ in
                    guard table.version == version else { return nil }
                    table.entries.insert(made)
                    table.version &+= 1
                    return made
                }
            }
            if let entry, try claim(entry, arguments: arguments, into: result) { return }
        }
    }

    /// Resolves the slot of `entry` into `result` by the claim protocol, claimed or waited for only while the entry
    /// is in the table (else `false`). A failed construction takes the entry out of the table, unless another thread
    /// claimed its slot again meanwhile (that construction decides), so that nothing of its argument is kept.
    private func claim(_ entry: KeptEntry, arguments: ResolveArguments, into result: InstanceStorage) throws
        -> Bool
    {
        let slot = entry.slot
        var listed = true
        do {
            _ = try store.inGraph(into: result) { graph in
                let request = SlotRequest(
                    key: key, forward: nil, arguments: .given(arguments), owner: store, graph: graph)
                while let acquisition = store.registry.withLockKeepingReaders({ _ in
                    table.entries.contains(entry) ? slot.acquire(key, graph: graph) : nil
                }) {
                    guard case .wait(let pending) = acquisition else {
                        return try store.produce(
                            Registry.Found(slot: slot, forward: nil), acquisition, arguments: request.arguments,
                            requested: key, into: result, graph: graph)
                    }
                    if let value = try slot.wait(for: pending, request) {
                        _ = slot.deliver(value, into: result)
                        return .typed(blueprint.ops)
                    }
                }
                listed = false
                return .value(())
            }
            return listed
        } catch {
            let dropped = store.registry.withLock { _ in
                slot.instance == nil && slot.pending == nil && table.entries.remove(entry) ? entry : nil
            }
            withExtendedLifetime(dropped) {}
            throw error
        }
    }

    /// Drops every slot kept (after the lock: a `deinit` is user code). A construction in progress finishes in its
    /// slot, which no later call finds.
    func drop() {
        let old = store.registry.withLock { _ in
            defer { table = Table(version: table.version &+ 1) }
            return table.entries
        }
        DependencyContainer.holdRelease(of: old)
    }

    /// The instance for an argument that cannot be told apart from another (neither `Hashable` nor a tuple of
    /// `Hashable` values): a new one per call, decorated.
    @usableFromInline
    func unkept<P: Sendable, T>(_ argument: P, make: @escaping @Sendable (P) throws -> T) throws -> T {
        let instance = try make(argument)
        return DependencyContainer.runningFactoryDecorators(of: key)?.applied(to: instance) ?? instance
    }
}

/// The value that tells `argument` apart from other arguments for a per-argument singleton when it is not `Hashable`
/// itself: the array of its elements when it is a tuple of `Hashable` values (tuples are never `Hashable` in Swift),
/// else `nil`.
@usableFromInline
func hashableArgument<P>(_ argument: P) -> AnyHashable? {
    let mirror = Mirror(reflecting: argument)
    guard mirror.displayStyle == .tuple else { return nil }
    var elements: [AnyHashable] = []
    for child in mirror.children {
        guard let element = child.value as? AnyHashable else { return nil }
        elements.append(element)
    }
    return AnyHashable(elements)
}

extension DependencyContainer {
    /// Resolves a `ParameterFactory` the fast path did not answer: its first use here (which registers the declared
    /// default), an override in a collaborator, hooks, decorators or a recording `validate`.
    @usableFromInline
    func resolveParameterAccessor<P: Sendable, T>(
        _ site: AccessorSite, _ argument: P, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: @escaping ParameterFactoryBuilder<P, T>
    ) throws -> T {
        try ResolveArguments.with(argument) { arguments in
            try resolveAccessor(site, arguments: arguments) {
                DeclaredDefault(parameterBlueprint(site.key, storage: storage, make: make, build: build))
            }
        }
    }

    /// The blueprint of a `ParameterFactory` definition under `key`. Unique storage: a plain factory of the
    /// argument, decorated by the engine as any definition is. Singleton storage: a factory that finds the instance
    /// this definition keeps for the argument's value (`ParameterInstances`, one per definition, so that an instance
    /// an old definition is still making never reaches a new one), decorated once, when it is made.
    func parameterBlueprint<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: ParameterFactoryBuilder<P, T>
    ) -> Blueprint {
        let made = Blueprint.parts(scope: .unique, type: T.self, factory: make)
        let kept = storage == .singleton ? Blueprint.make(scope: .singleton, type: T.self, factory: make) : nil
        let instances = kept.map { keepParameterInstances(for: key, blueprint: $0) }
        return Blueprint(made.with(factory: build(make, instances), decoratesItself: instances != nil))
    }
}

/// Makes the blueprint factory of a `ParameterFactory` definition from its factory and, for singleton storage, what
/// keeps its instances per argument value (`ParameterAccessorCore.factory`).
@usableFromInline
typealias ParameterFactoryBuilder<P, T> =
    @Sendable (@escaping @Sendable (P) throws -> T, ParameterInstances?) -> BlueprintFactory
