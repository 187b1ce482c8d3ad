extension Definition {
    /// Adds a hook that resolves a property of each new instance, by key path: Dip's short form of
    /// ``resolvingProperties(_:)``.
    ///
    /// ```swift
    /// container.register { Presenter() }
    ///     .resolvingProperty(\.view)                                  // resolves the property's type
    ///     .resolvingProperty(\.router, as: MainRouter.self, tag: "main")  // or another type, and a tag
    /// ```
    ///
    /// A key path rooted at `T` may leave the root out (`\.view`); one rooted elsewhere names it
    /// (`\PresenterBase.view`), and is checked against each instance when the hook runs.
    /// - Parameters:
    ///   - keyPath: The property to set.
    ///   - type: The type to resolve; the property's type by default. For an optional property (`weak var view:
    ///     View?`) the default resolves `View?`, which resolves through `View`'s definition.
    ///   - tag: The tag to resolve with, or `nil`.
    /// - Returns: This definition, for chaining.
    /// - Note: Where Dip traps on a mismatch, this hook throws ``ResolutionError/invalidType(resolved:key:)``: when
    ///   the instance is not a `Root`, or the resolved value is not a `V`. The error propagates out of the outermost
    ///   `resolve`, and the container stays usable.
    @discardableResult
    public func resolvingProperty<Root, V>(
        _ keyPath: ReferenceWritableKeyPath<Root, V> & Sendable,
        as type: Any.Type = V.self,
        tag: DependencyTagConvertible? = nil
    ) -> Definition {
        addHook(resolvingHook(keyPath, as: type, tag: tag?.dependencyTag))
    }

    /// Adds a hook that resolves a property of each new instance, by a key path rooted at `T`, so that `\.view`
    /// needs no root type; otherwise the same as the form with any root.
    /// - Parameters:
    ///   - keyPath: The property to set.
    ///   - type: The type to resolve; the property's type by default.
    ///   - tag: The tag to resolve with, or `nil`.
    /// - Returns: This definition, for chaining.
    /// - Note: A resolved value that is not a `V` throws ``ResolutionError/invalidType(resolved:key:)``.
    @discardableResult
    public func resolvingProperty<V>(
        _ keyPath: ReferenceWritableKeyPath<T, V> & Sendable,
        as type: Any.Type = V.self,
        tag: DependencyTagConvertible? = nil
    ) -> Definition {
        addHook(resolvingHook(keyPath, as: type, tag: tag?.dependencyTag))
    }

    /// Adds a hook that sets a property of each new instance, by key path, to what `factory` makes.
    ///
    /// ```swift
    /// container.register { Presenter() }
    ///     .resolvingProperty(\.view, factory: { try $0.resolve(tag: "compact") as ListView })
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to set. Its root is checked against each instance when the hook runs.
    ///   - factory: Makes the value from the container that owns this definition.
    /// - Returns: This definition, for chaining.
    /// - Note: An instance that is not a `Root` throws ``ResolutionError/invalidType(resolved:key:)`` (Dip traps).
    @discardableResult
    public func resolvingProperty<Root, V>(
        _ keyPath: ReferenceWritableKeyPath<Root, V> & Sendable,
        factory: @escaping @Sendable (DependencyContainer) throws -> V
    ) -> Definition {
        addHook(settingHook(keyPath, factory: factory))
    }

    /// Adds a hook that sets a property of each new instance, by a key path rooted at `T` (`\.view`), to what
    /// `factory` makes.
    /// - Parameters:
    ///   - keyPath: The property to set.
    ///   - factory: Makes the value from the container that owns this definition.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func resolvingProperty<V>(
        _ keyPath: ReferenceWritableKeyPath<T, V> & Sendable,
        factory: @escaping @Sendable (DependencyContainer) throws -> V
    ) -> Definition {
        addHook(settingHook(keyPath, factory: factory))
    }
}

/// A hook that resolves `type` with `tag` and stores it through `keyPath`; mismatches throw `invalidType`.
private func resolvingHook<Root, V>(
    _ keyPath: ReferenceWritableKeyPath<Root, V> & Sendable, as type: Any.Type, tag: DependencyContainer.Tag?
) -> Hook {
    { container, instance in
        let root = try propertyRoot(instance, as: Root.self)
        let resolved = try container.resolve(type, tag: tag)
        guard let value = resolved as? V else {
            throw ResolutionError.invalidType(
                resolved: Swift.type(of: resolved),
                key: DefinitionKey(type: V.self, typeOfArguments: Void.self, tag: tag))
        }
        root[keyPath: keyPath] = value
    }
}

/// A hook that stores what `factory` makes through `keyPath`; an instance of another root throws `invalidType`.
private func settingHook<Root, V>(
    _ keyPath: ReferenceWritableKeyPath<Root, V> & Sendable,
    factory: @escaping @Sendable (DependencyContainer) throws -> V
) -> Hook {
    { container, instance in
        let root = try propertyRoot(instance, as: Root.self)
        root[keyPath: keyPath] = try factory(container)
    }
}

/// The instance as the root of a key path, or `invalidType` naming the root type.
private func propertyRoot<Root>(_ instance: Any, as _: Root.Type) throws -> Root {
    guard let root = instance as? Root else {
        throw ResolutionError.invalidType(
            resolved: type(of: instance), key: DefinitionKey(type: Root.self, typeOfArguments: Void.self))
    }
    return root
}
