// Typed accessors that take a runtime argument (`ParameterFactory`): one definition per key, taking the argument, as
// a keyed `register { (id: Int) in … }` makes; for `.singleton` storage the container keeps the instances per argument
// value.

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
    /// The instance a singleton `ParameterFactory` keeps for `argument`'s value, made on first use and decorated once
    /// then; an argument that is not `Hashable` (nor a tuple of `Hashable` values) gets a new instance per call.
    func keptParameterInstance<P: Sendable, T>(
        _ key: DefinitionKey, _ argument: P, make: @escaping @Sendable (P) throws -> T
    ) throws -> T {
        guard let hashable = hashableArgument(argument) else { return try decorated(make(argument), key) }
        let instances = parameterInstances.withLock { kept -> ParameterInstances in
            if let instances = kept[key] { return instances }
            let instances = ParameterInstances(name: "\(name) \(key.tag.map { "\($0)" } ?? "") instances")
            kept[key] = instances
            return instances
        }
        let index = instances.index(of: hashable)
        let instanceKey = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: .int(index))
        return try instances.store.resolveExact(instanceKey) {
            DeclaredDefault(
                Blueprint.makeNullary(scope: .singleton, type: T.self) { [weak self] in
                    let instance = try make(argument)
                    return self?.decorated(instance, key) ?? instance
                })
        }
    }

    /// `instance` passed through the decorators added for `key`, in the order added.
    private func decorated<T>(_ instance: T, _ key: DefinitionKey) -> T {
        guard let decorators = registry.withLock({ $0.decorators[key] }) else { return instance }
        return decorators.applied(to: instance)
    }

    /// Registers an override for a `ParameterFactory` key, which replaces any earlier override and drops the instances
    /// kept for the key.
    @usableFromInline
    func registerParameterOverride<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: ParameterFactoryBuilder<P, T>
    ) {
        let definition = Definition<T, P>(
            blueprint: parameterBlueprint(key, storage: storage, make: make, build: build),
            site: CallSite(file: #fileID, line: #line))
        register(definition, tag: key.tag)
        dropParameterInstances(key)
    }

    /// Adds a decorator for a `ParameterFactory` key and drops the instances kept for it.
    func addParameterDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        addDecorator(key, decorator)
        dropParameterInstances(key)
    }

    /// Drops the instances kept for a `ParameterFactory` key (after the lock: a `deinit` is user code).
    func dropParameterInstances(_ key: DefinitionKey) {
        let dropped = parameterInstances.withLock { $0.removeValue(forKey: key) }
        withExtendedLifetime(dropped) {}
    }

    /// Drops the instances kept for every `ParameterFactory` key (a reset, a restored snapshot), after the lock.
    func dropParameterInstances() {
        let dropped = parameterInstances.withLock { kept in
            defer { kept = [:] }
            return kept
        }
        withExtendedLifetime(dropped) {}
    }
}
