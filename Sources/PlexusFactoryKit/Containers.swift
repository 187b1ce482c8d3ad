import Foundation
import Plexus

/// A container of Factory-style declarations: anything with a ``ContainerManager``.
///
/// ```swift
/// extension Container {
///     var api: Factory<APIClient> { self { LiveAPIClient() }.singleton }
///     var detail: ParameterFactory<Int, Detail> { self { Detail(id: $0) } }
/// }
/// ```
public protocol ManagedContainer: AnyObject, Sendable {
    /// The registrations, kept instances and settings of this container.
    var manager: ContainerManager { get }
}

/// A container with a process-wide (or task-local) instance, which property wrappers and `dependency(_:)`
/// resolve from.
public protocol SharedContainer: ManagedContainer {
    /// The instance property wrappers use.
    static var shared: Self { get }
}

/// A container that registers overrides the first time it is used, and again after a full reset.
public protocol AutoRegistering {
    /// Registers overrides (`self.api.register { … }`); called under the container's lock.
    func autoRegister()
}

/// The default shared container; extend it with your declarations.
public final class Container: SharedContainer {
    /// The instance property wrappers and `dependency(_:)` use; task-local, so a test can swap it for its own.
    @TaskLocal public static var shared = Container()
    /// The registrations, kept instances and settings of this container.
    public let manager = ContainerManager()
    /// Makes an empty container.
    public init() {}
}

extension ManagedContainer {
    /// Declares a factory: `var api: Factory<API> { self { LiveAPI() } }`.
    /// - Parameters:
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - factory: Makes an instance.
    /// - Returns: The declaration.
    @inlinable public func callAsFunction<T>(key: StaticString = #function, _ factory: @escaping () -> T) -> Factory<T>
    {
        Factory(self, key: key, factory)
    }

    /// Declares a factory that takes an argument: `var detail: ParameterFactory<Int, Detail> { self { Detail(id: $0) } }`.
    /// - Parameters:
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - factory: Makes an instance from the argument.
    /// - Returns: The declaration.
    @inlinable public func callAsFunction<P, T>(
        key: StaticString = #function, _ factory: @escaping (P) -> T
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, factory)
    }

    /// Declares a dependency another module registers: it resolves to nil (or stops the process, see
    /// ``ContainerManager/promiseTriggersError``) until something is registered for it, or until the manager's
    /// ``ContainerManager/plexus`` container (or one it collaborates with) can resolve `T`.
    /// - Parameters:
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - file: Where the declaration is, for the message.
    ///   - line: Where the declaration is, for the message.
    /// - Returns: The declaration.
    public func promised<T>(key: StaticString = #function, file: StaticString = #file, line: UInt = #line) -> Factory<
        T?
    > {
        Factory<T?>(self, key: key) { [manager] in
            manager.fulfil(T.self, file: file, line: line)
        }
    }

    /// Declares a dependency that takes an argument and another module registers; see `promised()`.
    /// - Parameters:
    ///   - key: The declaration's name; the enclosing property's by default.
    ///   - file: Where the declaration is, for the message.
    ///   - line: Where the declaration is, for the message.
    /// - Returns: The declaration.
    public func promised<P, T>(
        key: StaticString = #function, file: StaticString = #file, line: UInt = #line
    ) -> ParameterFactory<P, T?> {
        ParameterFactory<P, T?>(self, key: key) { [manager] _ in
            manager.fulfil(T.self, file: file, line: line)
        }
    }

    /// Sets a decorator every resolve of a declaration without its own decorator calls with the instance.
    /// - Parameter decorator: The decorator, or nil to remove it.
    public func decorator(_ decorator: ((Any) -> Void)?) {
        // The decorator replaced is released after the lock: its captures' `deinit`s may resolve.
        let replaced = ResolutionLock.withLock {
            defer { manager.state.decorator = decorator }
            return manager.state.decorator
        }
        withExtendedLifetime(replaced) {}
    }

    /// Drops what `options` names from every declaration; see ``ContainerManager/reset(options:)``.
    /// - Parameter options: What to drop; `.all` by default.
    public func reset(options: FactoryResetOptions = .all) {
        manager.reset(options: options)
    }

    /// Runs `transform` with the container and returns it.
    /// - Parameter transform: Typically registers overrides.
    /// - Returns: The container.
    @available(*, deprecated, message: "Use the callAsFunction form: Container.shared { $0.api.register { … } }")
    @discardableResult
    public func with(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }

    /// Runs `transform` with the container and returns it.
    /// - Parameter transform: Typically registers overrides.
    /// - Returns: The container.
    @available(*, deprecated, message: "Use the callAsFunction form: await Container.shared { … }")
    @discardableResult
    public func with(_ transform: @Sendable @isolated(any) (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }

    /// Runs ``AutoRegistering/autoRegister()`` when it has not run since the last full reset. Call under the
    /// resolution lock.
    @usableFromInline
    func runAutoRegistrationIfNeeded() {
        guard manager.state.autoRegistrationNeeded else { return }
        manager.state.autoRegistrationNeeded = false
        guard let autoRegistering = self as? AutoRegistering else { return }
        manager.isAutoRegistering = true
        autoRegistering.autoRegister()
        manager.isAutoRegistering = false
    }
}

extension SharedContainer {
    /// Changes the container in one closure: `Container.shared { $0.api.register { MockAPI() } }`.
    /// - Parameter transform: Typically registers overrides.
    public func callAsFunction(_ transform: (Self) -> Void) {
        transform(self)
    }

    /// Changes the container in one asynchronous closure, isolated as the closure is.
    /// - Parameter transform: Typically registers overrides.
    /// - Returns: The container.
    @discardableResult
    public func callAsFunction(_ transform: @Sendable @isolated(any) (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
}

extension ContainerManager {
    /// The value of a promised declaration nothing was registered for: from the Plexus container, else nil
    /// or a process stop. A definition the Plexus container has but cannot make (its factory throws, a cycle) stops
    /// the process with its error, as a Factory-style call that cannot throw stops for a cycle: it is not reported as
    /// missing.
    func fulfil<T>(_: T.Type, file: StaticString, line: UInt) -> T? {
        do {
            // Quietly: a promise nothing fulfils is an expected state, not an error to log.
            return try Plexus.withLogging(level: .none) { try plexus.resolve() as T }
        } catch ResolutionError.definitionNotFound(let key) where key.type == T.self {
            // Nothing fulfils the promise: below.
        } catch {
            Diagnostics.shared.stop("\(T.self) could not be made: \(error)", file: file, line: line)
        }
        if state.promiseTriggersError {
            Diagnostics.shared.stop("\(T.self) was not registered", file: file, line: line)
        }
        return nil
    }
}
