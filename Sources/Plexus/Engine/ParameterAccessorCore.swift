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
    /// `arguments`, as `H`), comparing arguments as `H`, without any lock held.
    @inlinable
    static func kept<H: Hashable>(
        _ hashable: H, in instances: ParameterInstances, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        let hash = hashable.hashValue
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
    @usableFromInline let hash: Int
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
/// reader copies one bucket out under the lock and compares arguments outside it; a bucket it holds is copied, not
/// changed, when an entry is added to it meanwhile.
struct KeptEntries {
    private var buckets: ContiguousArray<ContiguousArray<KeptEntry>> = []
    private(set) var count = 0

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

    /// Removes `entry` (by identity), if it is here.
    mutating func remove(_ entry: KeptEntry) {
        guard !buckets.isEmpty else { return }
        let index = entry.hash & (buckets.count - 1)
        guard let position = buckets[index].firstIndex(where: { $0 === entry }) else { return }
        buckets[index].remove(at: position)
        count -= 1
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
            definition: self, blueprint: blueprint,
            recipe: decorators.map { Recipe.plain.with(decorators: $0) } ?? Recipe.plain, key: key, order: 0)
    }

    /// Writes into `result` the instance kept for the argument at `arguments`, whose hash is `hash` and whose entry
    /// `matches` finds (comparing arguments): the published instance of its slot, read with the entry in one read
    /// of the table; else the entry's slot resolved by the claim protocol, after adding an entry (`newEntry`) if the
    /// value has none.
    @usableFromInline
    func resolve(
        hash: Int, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer, matches: (KeptEntry) -> Bool,
        newEntry: () -> KeptEntry
    ) throws {
        // The first entry with the hash, its published instance copied under the lock, kept if its argument matches.
        func published(_: UnsafePointer<Registry>) -> KeptEntry? {
            guard let first = table.entries.first(hash), first.slot.copyPublished(into: result) else { return nil }
            return first
        }
        if let copied = store.registry.withBiasedRead(published) ?? store.registry.withLockKeepingReaders(published) {
            if matches(copied) { return }
            blueprint.ops.destroy(result)
        }
        try resolveUnpublished(hash: hash, arguments: arguments, into: result, matches: matches, newEntry: newEntry)
    }

    /// `resolve` for a value whose instance is not published or whose hash collides: an entry is added only if the
    /// table did not change since its bucket was read, else the bucket is compared again; a slot whose entry left
    /// the table before it was claimed is looked up again.
    @inline(never)
    private func resolveUnpublished(
        hash: Int, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer, matches: (KeptEntry) -> Bool,
        newEntry: () -> KeptEntry
    ) throws {
        var (candidates, version) = store.registry.withLockKeepingReaders { _ in
            (table.entries.bucket(hash), table.version)
        }
        while true {
            guard let entry = candidates.first(where: { $0.hash == hash && matches($0) }) else {
                let entry = newEntry()
                let changed = store.registry.withLock { _ -> (ContiguousArray<KeptEntry>, Int)? in
                    guard table.version == version else { return (table.entries.bucket(hash), table.version) }
                    table.entries.insert(entry)
                    table.version &+= 1
                    return nil
                }
                if let changed { (candidates, version) = changed } else { candidates = [entry] }
                continue
            }
            if try claim(entry, arguments: arguments, into: result) { return }
            (candidates, version) = store.registry.withLockKeepingReaders { _ in
                (table.entries.bucket(hash), table.version)
            }
        }
    }

    /// Resolves the slot of `entry` into `result` by the claim protocol; `false` when the entry left the table before
    /// its slot was claimed or waited for. A failed construction takes the entry out of the table, unless another
    /// thread claimed its slot again meanwhile (that construction decides), so that nothing of its argument is kept.
    private func claim(_ entry: KeptEntry, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer) throws
        -> Bool
    {
        let slot = entry.slot
        do {
            return try store.resolveKept(slot, arguments: arguments, into: result) { graph in
                store.registry.withLock { _ in
                    table.entries.contains(entry) ? slot.acquire(key, graph: graph) : nil
                }
            }
        } catch {
            let dropped = store.registry.withLock { _ -> KeptEntry? in
                guard slot.instance == nil, slot.pending == nil, table.entries.contains(entry) else { return nil }
                table.entries.remove(entry)
                return entry
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
        withExtendedLifetime(old) {}
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
        try withArgumentsPointer(to: argument) { arguments in
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
        let made = Blueprint.make(scope: .unique, type: T.self, factory: make)
        let kept = storage == .singleton ? Blueprint.make(scope: .singleton, type: T.self, factory: make) : nil
        let instances = kept.map { keepParameterInstances(for: key, blueprint: $0) }
        return Blueprint(
            scope: .unique, type: made.type, argumentsType: made.argumentsType, argumentCount: made.argumentCount,
            ops: made.ops, factory: build(make, instances), withArguments: made.withArguments,
            autoWire: made.autoWire, decoratesItself: instances != nil)
    }
}

/// Makes the blueprint factory of a `ParameterFactory` definition from its factory and, for singleton storage, what
/// keeps its instances per argument value (`ParameterAccessorCore.factory`).
@usableFromInline
typealias ParameterFactoryBuilder<P, T> =
    @Sendable (@escaping @Sendable (P) throws -> T, ParameterInstances?) -> BlueprintFactory
