/// A declaration of a dependency, in Factory's spelling: a computed property of a container that makes a
/// `Factory` each time it is read, while the container's manager keeps its overrides, scope and instances.
///
/// ```swift
/// extension Container {
///     var api: Factory<APIClient> { self { LiveAPIClient() }.singleton }
/// }
/// let api = Container.shared.api()
/// Container.shared.api.register { MockAPIClient() }
/// ```
public struct Factory<T>: FactoryModifying {
    /// The declaration's identity and own factory.
    public var registration: FactoryRegistration<Void, T>

    /// Declares a factory in `container`.
    /// - Parameters:
    ///   - container: The container that keeps its overrides and instances.
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - factory: Makes an instance.
    @inlinable
    public init(_ container: any ManagedContainer, key: StaticString = #function, _ factory: @escaping () -> T) {
        registration = FactoryRegistration(key: key, container: container, plain: factory)
    }

    init(registration: FactoryRegistration<Void, T>) {
        self.registration = registration
    }

    /// Resolves an instance.
    /// - Returns: The instance, as the scope, the context and the overrides decide.
    @inlinable public func callAsFunction() -> T {
        registration.resolve(())
    }

    /// Resolves an instance.
    /// - Returns: The instance, as the scope, the context and the overrides decide.
    @inlinable public func resolve() -> T {
        registration.resolve(())
    }

    /// Registers an override, which replaces the declaration's own factory until reset.
    /// - Parameter factory: Makes the instance instead.
    /// - Returns: The declaration, for more modifiers (`register { … }.onTest { … }`).
    @discardableResult
    public func register(factory: @escaping () -> T) -> Self {
        registration.register(factory)
        return self
    }

    /// Registers an override in the short form: `Container.shared.api { MockAPIClient() }`.
    /// - Parameter factory: Makes the instance instead.
    public func callAsFunction(factory: @escaping () -> T) {
        registration.register(factory)
    }
}

/// A declaration that takes an argument at each resolve:
/// `var detail: ParameterFactory<Int, Detail> { self { Detail(id: $0) } }`, called `container.detail(42)`.
///
/// A scoped one keeps its first instance whatever the argument; add ``FactoryModifying/scopeOnParameters`` to
/// keep one per argument value.
public struct ParameterFactory<P, T>: FactoryModifying {
    /// The declaration's identity and own factory.
    public var registration: FactoryRegistration<P, T>

    /// Declares a factory that takes an argument in `container`.
    /// - Parameters:
    ///   - container: The container that keeps its overrides and instances.
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - factory: Makes an instance from the argument.
    @inlinable
    public init(_ container: any ManagedContainer, key: StaticString = #function, _ factory: @escaping (P) -> T) {
        registration = FactoryRegistration(key: key, container: container, factory: factory)
    }

    /// Resolves an instance for `parameters`.
    /// - Parameter parameters: The argument (a tuple for several).
    /// - Returns: The instance.
    @inlinable public func callAsFunction(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Resolves an instance for `parameters`.
    /// - Parameter parameters: The argument (a tuple for several).
    /// - Returns: The instance.
    @inlinable public func resolve(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Registers an override, which replaces the declaration's own factory until reset.
    /// - Parameter factory: Makes the instance from the argument instead.
    /// - Returns: The declaration, for more modifiers.
    @discardableResult
    public func register(factory: @escaping (P) -> T) -> Self {
        registration.register(factory)
        return self
    }

    /// Registers an override in the short form: `Container.shared.detail { MockDetail(id: $0) }`.
    /// - Parameter factory: Makes the instance from the argument instead.
    public func callAsFunction(factory: @escaping (P) -> T) {
        registration.register(factory)
    }
}

extension Factory where T: Sendable {
    /// Resolves on the main actor, for a declaration whose instance is main-actor isolated.
    /// - Returns: The instance.
    @MainActor
    public func resolveOnMainActor() -> T {
        registration.resolve(())
    }

    /// Resolves on the given global actor (pass `TheActor.shared`), from code isolated to it.
    /// - Parameter isolation: The actor the caller runs on.
    /// - Returns: The instance.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor)) -> T {
        registration.resolve(())
    }
}

extension ParameterFactory where P: Sendable, T: Sendable {
    /// Resolves on the main actor, for a declaration whose instance is main-actor isolated.
    /// - Parameter parameters: The argument.
    /// - Returns: The instance.
    @MainActor
    public func resolveOnMainActor(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Resolves on the given global actor (pass `TheActor.shared`), from code isolated to it.
    /// - Parameters:
    ///   - isolation: The actor the caller runs on.
    ///   - parameters: The argument.
    /// - Returns: The instance.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor), parameters: P) -> T {
        registration.resolve(parameters)
    }
}
