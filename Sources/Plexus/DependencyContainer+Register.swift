extension DependencyContainer {
    /// Registers a factory for `T`, taking any number of runtime arguments.
    ///
    /// ```swift
    /// container.register { ServiceImp() as Service }                  // .shared, no arguments
    /// container.register(.singleton, tag: "prod") { Api(url: prodURL) }
    /// container.register(.unique) { (id: Int, title: String) in Cell(id: id, title: title) }
    /// container.register(type: Service.self) { ServiceImp() }
    /// ```
    ///
    /// Registering again under the same key (type, argument types, tag) replaces the old definition and drops
    /// every instance cached for it. Registering after ``bootstrap()`` is fine: an eager singleton registered late
    /// is created by the next `bootstrap()` or on first use.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - factory: Makes an instance from the runtime arguments. It may resolve other dependencies, from this or
    ///     any container; errors it throws propagate out of `resolve` unchanged.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @inlinable
    @discardableResult
    public func register<T, each A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        factory: @escaping @Sendable (repeat each A) throws -> T
    ) -> Definition<T, (repeat each A)> {
        let definition = Definition<T, (repeat each A)>(
            blueprint: Blueprint.make(scope: scope, type: T.self, factory: factory))
        register(definition, tag: tag)
        return definition
    }

    /// Registers an existing definition under its type, argument types and `tag`.
    ///
    /// Use it to register one definition under several tags, or in another container; each container keeps its
    /// own singletons of it.
    /// - Parameters:
    ///   - definition: A definition returned by `register`.
    ///   - tag: The tag to register it under, or `nil`.
    public func register<T, U>(_ definition: Definition<T, U>, tag: DependencyTagConvertible? = nil) {
        let key = DefinitionKey(type: T.self, typeOfArguments: U.self, tag: tag?.dependencyTag)
        let released = definition.state.withLock { state in
            state.registrations.add(self)
            return registry.withLock { registry in
                registry.insert(
                    definition, blueprint: definition.blueprint, key: key, recipe: state.recipe,
                    forwards: state.forwards)
            }
        }
        withExtendedLifetime(released) {}
        if definition.scope == .cached { watchMemoryPressure() }
        log(.verbose, "Registered \(key) as \(definition.scope)")
    }

    /// Removes the registration of `definition` under `tag`, and with it the instances it cached here.
    /// - Parameters:
    ///   - definition: The definition to remove.
    ///   - tag: The tag it was registered with, or `nil`.
    public func remove<T, U>(_ definition: Definition<T, U>, tag: DependencyTagConvertible? = nil) {
        let key = DefinitionKey(type: T.self, typeOfArguments: U.self, tag: tag?.dependencyTag)
        let released = registry.withLock { registry -> [Any] in
            guard let slot = registry.slots[key], slot.definition === definition else { return [] }
            return registry.remove(key)
        }
        withExtendedLifetime(released) {}
    }
}
