/// A container that also registers and resolves by type alone, with no declaration:
/// `container.register { MyService() as MyServiceType }`, `let service: MyServiceType? = container.resolve()`.
public protocol Resolving: ManagedContainer {
    /// Registers a factory for `type`.
    func register<T>(_ type: T.Type, factory: @escaping @Sendable () -> T) -> Factory<T>
    /// The declaration registered for `type`, if any.
    func factory<T>(_ type: T.Type) -> Factory<T>?
    /// Resolves `type`, or nil when nothing is registered for it.
    func resolve<T>(_ type: T.Type) -> T?
}

/// The declaration name type-only registrations are kept under.
let typeOnlyKey: StaticString = "*"

extension Resolving {
    /// Registers a factory for `type`, replacing an earlier one.
    /// - Parameters:
    ///   - type: The type it makes; inferred by default.
    ///   - factory: Makes an instance.
    /// - Returns: The declaration, for modifiers (`.singleton`).
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @Sendable () -> T) -> Factory<T> {
        Factory(self, key: typeOnlyKey, factory).register(factory: factory)
    }

    /// The declaration registered for `type`, if any.
    /// - Parameter type: The type; inferred by default.
    /// - Returns: The declaration, or nil.
    public func factory<T>(_ type: T.Type = T.self) -> Factory<T>? {
        ResolutionLock.withLock {
            runAutoRegistrationIfNeeded()
            let key = FactoryKey(type: T.self, name: typeOnlyKey)
            guard let registered = manager.options[key]?.registration as? Maker<Void, T> else { return nil }
            return Factory(
                registration: FactoryRegistration(key: typeOnlyKey, container: self, factory: registered.make))
        }
    }

    /// Resolves `type`, or nil when nothing is registered for it here.
    /// - Parameter type: The type; inferred by default.
    /// - Returns: The instance, or nil.
    public func resolve<T>(_ type: T.Type = T.self) -> T? {
        factory(type)?.resolve()
    }
}
