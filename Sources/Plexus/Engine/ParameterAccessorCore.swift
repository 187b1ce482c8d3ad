/// What `ParameterFactory` resolves through: the fast path of typed accessors with the argument handed over in place,
/// and the blueprint of its declared default and overrides, specialized by the accessor's caller.
@usableFromInline
enum ParameterAccessorCore<P: Sendable, T> {
    /// The instance for `argument`, as `ParameterFactory.resolve(_:)` gives it.
    ///
    /// As for `AccessorCore.resolve`: an instance that fits `AccessorStorage` goes to a local of that type, passed by
    /// address, and the argument is passed by its address, so the call is not generic; anything the
    /// fast path cannot answer goes to `resolveParameterAccessor`.
    @inlinable
    static func resolve(
        _ container: DependencyContainer, _ site: AccessorSite, _ storage: ComponentScope,
        _ make: @escaping @Sendable (P) throws -> T, _ argument: P
    ) throws -> T {
        if MemoryLayout<T>.size <= MemoryLayout<AccessorStorage>.size,
            MemoryLayout<T>.alignment <= MemoryLayout<AccessorStorage>.alignment, MemoryLayout<P>.size > 0
        {
            var result = AccessorStorage()
            let done = try withUnsafePointer(to: argument) {
                try container.resolveAccessor(site, arguments: $0, into: &result)
            }
            if done { return AccessorCore<T>.take(&result) }
        }
        return try container.resolveParameterAccessor(site, argument, storage: storage, make: make, build: factory)
    }

    /// The blueprint factory of a `.unique` declared default or override: `make` called with the argument at the
    /// first pointer, its instance moved into the second. Specialized by the accessor's caller (the function itself
    /// captures nothing), so each instance is made without going through the value witnesses of `P` and `T`.
    @inlinable
    static func factory(_ make: @escaping @Sendable (P) throws -> T) -> BlueprintFactory {
        { arguments, result in
            result.assumingMemoryBound(to: T.self).initialize(
                to: try make(arguments.assumingMemoryBound(to: P.self).pointee))
        }
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
    /// kept for the argument's value (`keptParameterInstance`) and decorates each instance once, when it is made.
    func parameterBlueprint<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: ParameterFactoryBuilder<P, T>
    ) -> Blueprint {
        let made = Blueprint.make(scope: .unique, type: T.self, factory: make)
        guard storage == .singleton else {
            return Blueprint(
                scope: .unique, type: made.type, argumentsType: made.argumentsType,
                argumentCount: made.argumentCount, ops: made.ops, factory: build(make),
                withArguments: made.withArguments, autoWire: made.autoWire)
        }
        // Weak: the container keeps the blueprint.
        let kept: BlueprintFactory = { [weak self] arguments, result in
            let argument = arguments.assumingMemoryBound(to: P.self).pointee
            let instance = try self?.keptParameterInstance(key, argument, make: make) ?? make(argument)
            result.assumingMemoryBound(to: T.self).initialize(to: instance)
        }
        return Blueprint(
            scope: .unique, type: made.type, argumentsType: made.argumentsType, argumentCount: made.argumentCount,
            ops: made.ops, factory: kept, withArguments: made.withArguments, autoWire: made.autoWire,
            decoratesItself: true)
    }
}

/// Makes the blueprint factory of a `ParameterFactory` definition from its factory
/// (`ParameterAccessorCore.factory`).
@usableFromInline
typealias ParameterFactoryBuilder<P, T> = @Sendable (@escaping @Sendable (P) throws -> T) -> BlueprintFactory
