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

    /// The instance kept for the argument's value `hashable` (the argument itself, as `H`): found in the table of
    /// published instances, read without any lock held while the argument's `hash(into:)` and `==` run; else made
    /// once by `instances` in its current generation (read before the decorators it applies), and published unless
    /// that generation was dropped meanwhile.
    @inlinable
    static func kept<H: Hashable>(
        _ hashable: H, _ argument: P, in instances: ParameterInstances, make: @escaping @Sendable (P) throws -> T
    ) throws -> T {
        if let table = instances.published() as? PublishedInstances<H, T>, let found = table.values[hashable] {
            return found
        }
        let (published, generation) = instances.current()
        let made: T = try instances.instance(for: AnyHashable(hashable), argument, make: make, in: generation)
        var old = published
        while true {
            let table = old as? PublishedInstances<H, T>
            if let found = table?.values[hashable] { return found }
            var values = table?.values ?? [:]
            values[hashable] = made
            guard instances.publish(PublishedInstances(values), replacing: &old, in: generation) else { continue }
            return made
        }
    }
}

/// The instances a singleton `ParameterFactory` made, by argument value, in a table that is never changed: a new one
/// replaces it (`ParameterInstances.publish`).
// `@unchecked Sendable`: the table never changes after `init`; its instances are those `ParameterInstances.store`
// keeps and hands to every thread that asks, as any container does its singletons.
@usableFromInline
final class PublishedInstances<H: Hashable, T>: @unchecked Sendable {
    @usableFromInline let values: [H: T]

    @inlinable
    init(_ values: [H: T]) {
        self.values = values
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
