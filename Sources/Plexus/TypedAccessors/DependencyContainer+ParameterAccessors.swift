// Typed accessors that take a runtime argument (`ParameterFactory`): one definition per key, taking the argument, as
// a keyed `register { (id: Int) in … }` makes; for `.singleton` storage the container keeps the instances per argument
// value.

/// What one definition of a singleton `ParameterFactory` key keeps: the instances made per argument value, one
/// generation at a time (`KeptInstances`). A reset, an override or a decorator of the key drops the generation as a
/// whole; this object stays, captured by the definition's factory.
///
/// The instances made are also published, by argument value, as entries typed by the argument's own type
/// (`PublishedInstance`, built by the accessor's caller), so that finding one again hashes the argument as itself,
/// not as `AnyHashable`, and resolves nothing.
@usableFromInline
final class ParameterInstances: Sendable {
    let key: DefinitionKey
    private let name: String
    private let state: Protected<State>

    /// The current generation and its published instances, added to in place under the lock: finding an argument
    /// among them calls the argument's `hash(into:)` and `==`, user code, which runs outside the lock on a bucket
    /// copied out of it.
    private struct State {
        var generation: KeptInstances
        var published = KeptEntries()
    }

    init(key: DefinitionKey, name: String) {
        self.key = key
        self.name = name
        state = Protected(State(generation: KeptInstances(name: name)))
    }

    /// The published instances whose hash falls in the bucket of `hash`.
    @usableFromInline
    func published(_ hash: Int) -> ContiguousArray<KeptEntry> {
        state.withLock { $0.published.bucket(hash) }
    }

    /// The published instances whose hash falls in the bucket of `hash`, and the generation they belong to.
    @usableFromInline
    func current(_ hash: Int) -> (published: ContiguousArray<KeptEntry>, generation: KeptInstances) {
        state.withLock { ($0.published.bucket(hash), $0.generation) }
    }

    /// Publishes `entry` if `generation` is current and no entry with its hash was published beyond `known`; returns
    /// those entries when there are some, to compare with before trying again, else `nil` (published, or not
    /// published because `generation` was dropped meanwhile).
    @usableFromInline
    func publish(
        _ entry: KeptEntry, known: ContiguousArray<KeptEntry>, in generation: KeptInstances
    ) -> ContiguousArray<KeptEntry>? {
        state.withLock { state in
            guard state.generation === generation else { return nil }
            let added = state.published.added(entry.hash, since: known)
            guard added.isEmpty else { return added }
            state.published.insert(entry)
            return nil
        }
    }

    /// Drops every instance kept (after the lock: a `deinit` is user code).
    func drop() {
        let fresh = KeptInstances(name: name)
        let old = state.withLock { state in
            defer { state = State(generation: fresh) }
            return state
        }
        withExtendedLifetime(old) {}
    }

    /// The instance kept in `generation` for the argument whose value is `hashable`, made from `argument` on first
    /// use, once even when several threads ask at the same time, and decorated then with the decorators of the key in
    /// the container whose factory is running. Read `generation` before calling: a decorator added after it drops
    /// it, so an instance decorated the old way is never published.
    @usableFromInline
    func instance<P: Sendable, T>(
        for hashable: AnyHashable, _ argument: P, make: @escaping @Sendable (P) throws -> T,
        in generation: KeptInstances
    ) throws -> T {
        let decorators = DependencyContainer.runningFactoryDecorators(of: key)
        let entry = generation.index(of: hashable)
        let instanceKey = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: .int(entry.instance))
        do {
            return try generation.store.resolveExact(instanceKey) {
                DeclaredDefault(
                    Blueprint.makeNullary(scope: .singleton, type: T.self) {
                        let instance = try make(argument)
                        return decorators?.applied(to: instance) ?? instance
                    })
            }
        } catch {
            generation.forget(entry, key: instanceKey)
            throw error
        }
    }

    /// The instance for an argument that is not `Hashable` itself: a tuple of `Hashable` values, told apart by the
    /// array of its elements (never published); any other argument gets a new instance per call, decorated.
    @usableFromInline
    func instance<P: Sendable, T>(for argument: P, make: @escaping @Sendable (P) throws -> T) throws -> T {
        if let hashable = hashableArgument(argument) {
            return try instance(for: hashable, argument, make: make, in: state.withLock { $0.generation })
        }
        let instance = try make(argument)
        return DependencyContainer.runningFactoryDecorators(of: key)?.applied(to: instance) ?? instance
    }
}

/// A reference to a definition's `ParameterInstances` that does not keep it.
struct WeakParameterInstances {
    weak var instances: ParameterInstances?
}

/// One generation of the instances a singleton `ParameterFactory` keeps: each is an accessor default of a container of
/// its own, under the index of its argument value, so that the engine makes it once even when several threads ask
/// for it at the same time (the others wait without holding a lock), sees cycles, and keeps it.
@usableFromInline
final class KeptInstances: Sendable {
    let store: DependencyContainer
    /// The indices given so far, added to in place under the lock: finding an argument among them calls the
    /// argument's `hash(into:)` and `==`, user code that may block or resolve again, so it runs outside the lock, on
    /// a bucket copied out of it.
    private let indices = Protected(Indices())

    private struct Indices {
        var entries = KeptEntries()
        var next = 0
    }

    init(name: String) {
        store = DependencyContainer(name: name)
    }

    /// The index of `argument`'s value, given on first use: looked up in its bucket; when missing, given under the
    /// lock only if no entry with the same hash was added meanwhile, else the lookup goes on with those entries,
    /// which may hold the argument by then.
    func index(of argument: AnyHashable) -> PublishedInstance<AnyHashable, Int> {
        let hash = argument.hashValue
        var known = indices.withLock { $0.entries.bucket(hash) }
        var candidates = known
        while true {
            for entry in candidates where entry.hash == hash {
                if let entry = entry as? PublishedInstance<AnyHashable, Int>, entry.argument == argument {
                    return entry
                }
            }
            let given = indices.withLock {
                indices -> (entry: PublishedInstance<AnyHashable, Int>?, added: ContiguousArray<KeptEntry>) in
                let added = indices.entries.added(hash, since: known)
                guard added.isEmpty else { return (nil, added) }
                let entry = PublishedInstance(hash: hash, argument: argument, instance: indices.next)
                indices.entries.insert(entry)
                indices.next += 1
                return (entry, [])
            }
            if let entry = given.entry { return entry }
            let added = given.added
            candidates = added
            known.append(contentsOf: added)
        }
    }

    /// Forgets the argument of `entry` after its factory threw, so that a failed construction keeps neither the
    /// argument nor the definition that captures it: the definition under `key` goes unless another thread made the
    /// instance or is making it meanwhile (that thread decides, and forgets it in turn if it fails too), and the
    /// index goes with it. A later call gives the argument a new index and runs the factory again.
    func forget(_ entry: PublishedInstance<AnyHashable, Int>, key: DefinitionKey) {
        guard store.removeUnmadeDefault(key) else { return }
        indices.withLock { $0.entries.remove(entry) }
    }
}

/// The value that tells `argument` apart from other arguments for a per-argument singleton: the argument itself when
/// it is `Hashable`, the array of its elements when it is a tuple of `Hashable` values (tuples are never `Hashable`
/// in Swift), else `nil`.
func hashableArgument<P>(_ argument: P) -> AnyHashable? {
    if let hashable = argument as? AnyHashable { return hashable }
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
    /// A new keeper of instances per argument value for a definition of the singleton `ParameterFactory` key `key`,
    /// remembered (weakly) so that resets, overrides and decorators of the key drop its instances.
    func keepParameterInstances(for key: DefinitionKey) -> ParameterInstances {
        let instances = ParameterInstances(key: key, name: "\(name) \(key.tag.map { "\($0)" } ?? "") instances")
        parameterKeepers.withLock { keepers in
            var live = keepers.byKey[key, default: []].filter { $0.instances != nil }
            live.append(WeakParameterInstances(instances: instances))
            keepers.byKey[key] = live
        }
        return instances
    }

    /// Registers an override for a `ParameterFactory` key, which replaces any earlier override and drops the instances
    /// kept for the key.
    @usableFromInline
    func registerParameterOverride<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: ParameterFactoryBuilder<P, T>
    ) {
        register(
            parameterBlueprint(key, storage: storage, make: make, build: build), key: key,
            hash: KeyTable<Slot>.hash(key), recipe: Recipe.plain)
        dropParameterInstances(key)
    }

    /// Adds a decorator for a `ParameterFactory` key and drops the instances kept for it.
    func addParameterDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        addDecorator(key, decorator)
        dropParameterInstances(key)
    }

    /// Drops the instances kept for a `ParameterFactory` key, by each of its definitions.
    func dropParameterInstances(_ key: DefinitionKey) {
        for keeper in parameterKeepers.withLock({ $0.byKey[key] ?? [] }) { keeper.instances?.drop() }
    }

    /// Drops the instances kept for every `ParameterFactory` key (a reset, a restored snapshot).
    func dropParameterInstances() {
        for keeper in parameterKeepers.withLock({ Array($0.byKey.values.joined()) }) { keeper.instances?.drop() }
    }
}

/// What each definition of a singleton typed accessor taking a runtime argument keeps per argument value, by key.
///
/// A struct of its own, not generic: a container's lock around a dictionary type would instantiate that type's
/// metadata with every new container, and with it the Swift runtime's check that `DefinitionKey` is `Hashable` (the
/// first such check walks every protocol conformance the process has loaded). Its metadata is needed only once a
/// parameter accessor keeps something.
struct ParameterKeepers {
    var byKey: [DefinitionKey: [WeakParameterInstances]] = [:]
}
