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
    /// and each kept one found, without going through the value witnesses of `P` and `T`.
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
            let instance: T
            if let hashable = argument as? any Hashable {
                instance = try kept(hashable, argument, in: instances, make: make)
            } else {
                instance = try instances.instance(for: argument, make: make)
            }
            result.assumingMemoryBound(to: T.self).initialize(to: instance)
        }
    }

    /// The instance kept for the argument's value `hashable` (the argument itself, as `H`): found among the
    /// published instances, compared without any lock held while the argument's `hash(into:)` and `==` run; else made
    /// once by `instances` in its current generation (read before the decorators it applies), and published unless
    /// that generation was dropped meanwhile.
    @inlinable
    static func kept<H: Hashable>(
        _ hashable: H, _ argument: P, in instances: ParameterInstances, make: @escaping @Sendable (P) throws -> T
    ) throws -> T {
        let hash = hashable.hashValue
        if let found = find(hashable, hash, in: instances.published(hash)) { return found }
        let (seen, generation) = instances.current(hash)
        let made: T = try instances.instance(for: AnyHashable(hashable), argument, make: make, in: generation)
        var candidates = seen
        var known = seen
        while true {
            if let found = find(hashable, hash, in: candidates) { return found }
            let entry = PublishedInstance(hash: hash, argument: hashable, instance: made)
            guard let added = instances.publish(entry, known: known, in: generation) else { return made }
            candidates = added
            known.append(contentsOf: added)
        }
    }

    /// The instance of the entry in `entries` whose argument is `hashable`, if any.
    @inlinable
    static func find<H: Hashable>(_ hashable: H, _ hash: Int, in entries: ContiguousArray<KeptEntry>) -> T? {
        for entry in entries where entry.hash == hash {
            if let entry = entry as? PublishedInstance<H, T>, entry.argument == hashable { return entry.instance }
        }
        return nil
    }
}

/// One argument value kept by a singleton `ParameterFactory` and its hash; never changed after `init`.
// `@unchecked Sendable`: nothing in it changes after `init`; the subclasses' values are `Sendable` arguments and the
// instances `ParameterInstances.store` keeps and hands to every thread that asks, as any container does its
// singletons.
@usableFromInline
class KeptEntry: @unchecked Sendable {
    @usableFromInline let hash: Int

    @usableFromInline
    init(hash: Int) {
        self.hash = hash
    }
}

/// An instance a singleton `ParameterFactory` made, published under its argument's value, typed by the argument's
/// own type so that finding it again hashes the argument as itself, not as `AnyHashable`.
@usableFromInline
final class PublishedInstance<H: Hashable, T>: KeptEntry, @unchecked Sendable {
    @usableFromInline let argument: H
    @usableFromInline let instance: T

    @inlinable
    init(hash: Int, argument: H, instance: T) {
        self.argument = argument
        self.instance = instance
        super.init(hash: hash)
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

    /// The entries with `hash` not in `known`: those added since `known` was read.
    func added(_ hash: Int, since known: ContiguousArray<KeptEntry>) -> ContiguousArray<KeptEntry> {
        bucket(hash).filter { entry in entry.hash == hash && !known.contains { $0 === entry } }
    }

    /// Adds `entry`, growing the buckets when three quarters full.
    mutating func insert(_ entry: KeptEntry) {
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        buckets[entry.hash & (buckets.count - 1)].append(entry)
        count += 1
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
        let instances = storage == .singleton ? keepParameterInstances(for: key) : nil
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
