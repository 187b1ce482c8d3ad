extension DependencyContainer {
    /// Registers `value` under a string key: the escape hatch for dependencies without a typed accessor.
    ///
    /// The key becomes the definition's tag, so `resolve(_:key:)` and `resolve(tag:)` find it. Error prone (a
    /// typo in the key is only found at run time); prefer typed accessors.
    ///
    /// ```swift
    /// container.inject(key: "Something", something)
    /// let same = try container.resolve(Something.self, key: "Something")
    /// ```
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The instance every resolve of the key returns; replaces what was registered under the key.
    public func inject<T: Sendable>(key: String, _ value: T) {
        register(.singleton, type: T.self, tag: key) { value }
    }

    /// Registers `value` under its static type, untagged, so that `resolve()` of that type returns it; the way to
    /// give a module container its externals when it is made.
    ///
    /// ```swift
    /// let checkout = DependencyContainer(name: "Checkout") { $0.inject(environment) }
    /// let environment: Environment = try checkout.resolve()
    /// ```
    /// - Parameter value: The instance every resolve of `T` returns; replaces what was registered for `T`.
    public func inject<T: Sendable>(_ value: T) {
        register(.singleton, type: T.self) { value }
    }

    /// Resolves what was registered under a string key, with ``inject(key:_:)``, or `register` with that tag.
    ///
    /// Only a definition under exactly that type and key answers (no fallback to an untagged definition), here or
    /// in the collaborators.
    /// - Parameters:
    ///   - type: The type registered.
    ///   - key: The key.
    /// - Returns: The instance.
    /// - Throws: ``ResolutionError/definitionNotFound(key:)`` naming near misses (the type under other keys, the
    ///   key with other types) when nothing matches.
    public func resolve<T>(_ type: T.Type, key: String) throws -> T {
        try resolveExact(DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: .string(key)))
    }

    /// Adds a decorator to the definition of `type` under `tag` (a Dip-style registration or a typed accessor's
    /// key): every instance it makes from now on passes through the decorators in the order added, once per
    /// instance (once for a singleton). Drops the instance cached for the key.
    ///
    /// Decorators are kept per key in this container, so they also apply to a definition registered under the key
    /// later. They do not apply to a definition found in a collaborator, to one reached through `implements` (its
    /// instances have the definition's own type: decorate that type) or to one that takes runtime arguments; for
    /// the last two, the decorator logs an error naming the definition.
    ///
    /// ```swift
    /// container.register(.singleton) { DefaultPriceMapper() as PriceMapper }
    /// container.decorate(PriceMapper.self) { LoggingPriceMapper(decorating: $0) }
    /// ```
    /// - Parameters:
    ///   - type: The type the definition is registered for.
    ///   - tag: Its tag, or `nil`.
    ///   - decorator: Returns the instance to use instead of the one it is given.
    public func decorate<T>(
        _ type: T.Type, tag: DependencyTagConvertible? = nil, _ decorator: @escaping @Sendable (T) -> T
    ) {
        let key = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        addDecorator(key, decorator)
        if let reason = unreachableDecoratorTarget(for: key) {
            log(.errors, "Plexus: decorate(\(T.self).self) has nothing to decorate: \(reason)")
        }
    }
}
