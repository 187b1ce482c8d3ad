// Typed accessors that take a runtime argument (`ParameterFactory`): one definition per key, taking the argument, as
// a keyed `register { (id: Int) in … }` makes; the container keeps their decorators and, for `.singleton`, the
// instances per argument value.

/// What a container keeps for one `ParameterFactory` key: its decorators (`@Sendable (T) -> T`, in the order
/// added) and, for a singleton accessor, the instances made per argument value.
struct ParameterAccessorState {
    var decorators: [any Sendable] = []
    var instances: ParameterInstances?
}

/// The instances a singleton `ParameterFactory` keeps per argument value: each is an accessor default of a
/// container of its own, under the index of its argument value, so that the engine makes it once even when several
/// threads ask for it at the same time (the others wait without holding a lock), sees cycles, and keeps it. Dropped
/// as a whole when the key's definition changes or its instances are reset.
final class ParameterInstances: Sendable {
    let store: DependencyContainer
    /// The indices given so far, replaced as a whole and never changed in place: finding an argument in it calls the
    /// argument's `hash(into:)` and `==`, user code that may block or resolve again, so it runs outside the lock,
    /// which only hands the table over.
    private let indices = Protected(IndexTable([:]))

    init(name: String) {
        store = DependencyContainer(name: name)
    }

    /// The index of `argument`'s value, given on first use: looked up in the current table; when missing, a table
    /// with it added is built outside the lock and swapped in only if no other thread swapped one in meanwhile, else
    /// the lookup starts over on the newer table, which may hold the argument by then.
    func index(of argument: AnyHashable) -> Int {
        while true {
            let table = indices.withLock { $0 }
            if let index = table.indices[argument] { return index }
            var grown = table.indices
            let index = grown.count
            grown[argument] = index
            let next = IndexTable(grown)
            let swapped = indices.withLock { current in
                guard current === table else { return false }
                current = next
                return true
            }
            // Released after the lock: dropping the last reference to a table releases its arguments (user code).
            if swapped { return withExtendedLifetime(table) { index } }
        }
    }

    /// One immutable table of indices; its identity tells whether another thread replaced it.
    // `@unchecked Sendable`: the table never changes after `init`, and its keys wrap `Sendable` arguments (a
    // `ParameterFactory`'s `P`).
    private final class IndexTable: @unchecked Sendable {
        let indices: [AnyHashable: Int]

        init(_ indices: [AnyHashable: Int]) {
            self.indices = indices
        }
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
    /// Resolves a `ParameterFactory`: the definition under exactly `key` here, else in the collaborators, else the
    /// declared default, registered here on first use; `argument` goes to the factory that answers.
    func resolveParameterAccessor<P: Sendable, T>(
        _ key: DefinitionKey, _ argument: P, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T
    ) throws -> T {
        if GraphRecorder.isActive { GraphRecorder.noteAccessor(key) }
        return try resolveExact(key, arguments: argument) {
            DeclaredDefault(parameterBlueprint(key, storage: storage, make: make))
        }
    }

    /// The blueprint of a `ParameterFactory` definition: unique for the engine, which hands the argument over; the
    /// decorators and the per-argument instances are this container's (`makeParameterInstance`).
    private func parameterBlueprint<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T
    ) -> Blueprint {
        // Weak: the container keeps the blueprint.
        Blueprint.make(scope: .unique, type: T.self) { [weak self] (argument: P) throws -> T in
            guard let self else { return try make(argument) }
            return try self.makeParameterInstance(key, argument, storage: storage, make: make)
        }
    }

    /// Makes (or, for a singleton with a `Hashable` argument, finds) the instance for `argument`, decorated.
    private func makeParameterInstance<P: Sendable, T>(
        _ key: DefinitionKey, _ argument: P, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T
    ) throws -> T {
        let hashable = storage == .singleton ? hashableArgument(argument) : nil
        let (decorators, instances) = parameterAccessors.withLock { states -> ([any Sendable], ParameterInstances?) in
            // Read only, once the state this call needs is there.
            if let state = states[key], hashable == nil || state.instances != nil {
                return (state.decorators, hashable == nil ? nil : state.instances)
            }
            var state = states[key] ?? ParameterAccessorState()
            defer { states[key] = state }
            if hashable != nil, state.instances == nil {
                state.instances = ParameterInstances(name: "\(name) \(key.tag.map { "\($0)" } ?? "") instances")
            }
            return (state.decorators, hashable == nil ? nil : state.instances)
        }
        guard let hashable, let instances else { return try Self.decorated(make(argument), by: decorators) }
        let decorated: @Sendable () throws -> T = { try Self.decorated(make(argument), by: decorators) }
        let index = instances.index(of: hashable)
        let instanceKey = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: .int(index))
        return try instances.store.resolveExact(instanceKey) {
            DeclaredDefault(Blueprint.makeNullary(scope: .singleton, type: T.self, factory: decorated))
        }
    }

    /// `instance` passed through `decorators` (`@Sendable (T) -> T`), in the order added.
    private static func decorated<T>(_ instance: T, by decorators: [any Sendable]) -> T {
        var instance = instance
        for case let decorator as @Sendable (T) -> T in decorators { instance = decorator(instance) }
        return instance
    }

    /// The key of the `ParameterFactory` of argument type `P` declared at `site`: its tag is the one this container
    /// keeps for the site, built once, rather than a new string on every call.
    func parameterKey<P, T>(_ site: AccessorSite, _: P.Type, _: T.Type) -> DefinitionKey {
        let tag = registry.withLock { $0.accessorKeys.entry(for: site).key.tag }
        return DefinitionKey(type: T.self, typeOfArguments: P.self, tag: tag)
    }

    /// Registers an override for a `ParameterFactory` key, which replaces any earlier override and drops the instances
    /// kept for the key.
    func registerParameterOverride<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T
    ) {
        let definition = Definition<T, P>(
            blueprint: parameterBlueprint(key, storage: storage, make: make),
            site: CallSite(file: #fileID, line: #line))
        register(definition, tag: key.tag)
        dropParameterInstances(key)
    }

    /// Adds a decorator for a `ParameterFactory` key and drops the instances kept for it.
    func addParameterDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        let dropped = parameterAccessors.withLock { states -> ParameterInstances? in
            var state = states[key] ?? ParameterAccessorState()
            defer { states[key] = state }
            state.decorators.append(decorator)
            defer { state.instances = nil }
            return state.instances
        }
        withExtendedLifetime(dropped) {}
    }

    /// Drops the instances kept for a `ParameterFactory` key (after the lock: a `deinit` is user code).
    func dropParameterInstances(_ key: DefinitionKey) {
        let dropped = parameterAccessors.withLock { states -> ParameterInstances? in
            defer { states[key]?.instances = nil }
            return states[key]?.instances
        }
        withExtendedLifetime(dropped) {}
    }

    /// Replaces the state of every `ParameterFactory` key (a reset, a restored snapshot), releasing the old one after
    /// the lock.
    func dropParameterAccessors(replacingWith states: [DefinitionKey: ParameterAccessorState]) {
        let dropped = parameterAccessors.withLock { current in
            let old = current
            current = states
            return old
        }
        withExtendedLifetime(dropped) {}
    }
}
