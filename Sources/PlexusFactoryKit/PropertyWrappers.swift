/// Resolves a declaration of a shared container when the enclosing value is made:
/// `@Injected(\.api) var api: APIClient`.
///
/// In a file that also imports `Plexus`, write `@PlexusFactoryKit.Injected(\.api)`: Plexus's `@Injected` is
/// Dip's auto-injected property.
@propertyWrapper public struct Injected<T> {
    private var reference: () -> Factory<T>
    private var dependency: T

    /// Resolves `keyPath` of ``Container/shared`` now.
    /// - Parameter keyPath: The declaration.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(reference: { Container.shared[keyPath: keyPath] })
    }

    /// Resolves `keyPath` of `C.shared` now.
    /// - Parameter keyPath: The declaration.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(reference: { C.shared[keyPath: keyPath] })
    }

    private init(reference: @escaping () -> Factory<T>) {
        self.reference = reference
        self.dependency = reference()()
    }

    /// The instance; assigning replaces it in this property only.
    public var wrappedValue: T {
        get { dependency }
        set { dependency = newValue }
    }

    /// The wrapper itself, for `$api.resolve(reset:)` and `$api.factory`.
    public var projectedValue: Injected<T> {
        get { self }
        set { self = newValue }
    }

    /// The declaration, read from the shared container now.
    public var factory: Factory<T> { reference() }

    /// Resolves again, after resetting what `options` names.
    /// - Parameter options: What to reset first; nothing by default.
    public mutating func resolve(reset options: FactoryResetOptions = .none) {
        let factory = reference()
        factory.reset(options)
        dependency = factory()
    }
}

/// Resolves a declaration of a shared container the first time the property is read:
/// `@LazyInjected(\.api) var api: APIClient`.
@propertyWrapper public struct LazyInjected<T> {
    private let reference: () -> Factory<T>
    private let storage = LazyStorage<T>()

    /// Resolves `keyPath` of ``Container/shared`` on first read.
    /// - Parameter keyPath: The declaration.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = { Container.shared[keyPath: keyPath] }
    }

    /// Resolves `keyPath` of `C.shared` on first read.
    /// - Parameter keyPath: The declaration.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = { C.shared[keyPath: keyPath] }
    }

    /// The instance, resolved on first read; assigning replaces it.
    public var wrappedValue: T {
        get {
            ResolutionLock.withLock {
                if let value = storage.value { return value }
                let value = reference()()
                storage.value = value
                return value
            }
        }
        nonmutating set { ResolutionLock.withLock { storage.value = newValue } }
    }

    /// The wrapper itself, for `$api.resolve(reset:)`, `$api.resolvedOrNil()` and `$api.factory`.
    public var projectedValue: LazyInjected<T> {
        get { self }
        set { self = newValue }
    }

    /// The declaration, read from the shared container now.
    public var factory: Factory<T> { reference() }

    /// Resolves again, after resetting what `options` names.
    /// - Parameter options: What to reset first; nothing by default.
    public func resolve(reset options: FactoryResetOptions = .none) {
        ResolutionLock.withLock {
            let factory = reference()
            factory.reset(options)
            storage.value = factory()
        }
    }

    /// The instance if the property was read (or resolved) already, else nil; never resolves.
    /// - Returns: The instance, or nil.
    public func resolvedOrNil() -> T? {
        ResolutionLock.withLock { storage.value }
    }
}

/// Resolves a declaration the first time the property is read and keeps it weakly: nil once nothing else
/// holds the instance. `@WeakLazyInjected(\.delegate) var delegate: Delegate?`.
@propertyWrapper public struct WeakLazyInjected<T> {
    private let reference: () -> Factory<T>
    private let storage = WeakStorage()

    /// Resolves `keyPath` of ``Container/shared`` on first read.
    /// - Parameter keyPath: The declaration.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = { Container.shared[keyPath: keyPath] }
    }

    /// Resolves `keyPath` of `C.shared` on first read.
    /// - Parameter keyPath: The declaration.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = { C.shared[keyPath: keyPath] }
    }

    /// The instance while something else holds it, resolved on first read; nil once released.
    public var wrappedValue: T? {
        get {
            ResolutionLock.withLock {
                if !storage.isResolved {
                    storage.object = reference()() as AnyObject
                    storage.isResolved = true
                }
                return storage.object as? T
            }
        }
        nonmutating set {
            ResolutionLock.withLock {
                storage.object = newValue.map { $0 as AnyObject }
                storage.isResolved = true
            }
        }
    }

    /// The wrapper itself, for `$delegate.resolve(reset:)`, `$delegate.resolvedOrNil()` and `$delegate.factory`.
    public var projectedValue: WeakLazyInjected<T> {
        get { self }
        set { self = newValue }
    }

    /// The declaration, read from the shared container now.
    public var factory: Factory<T> { reference() }

    /// Resolves again, after resetting what `options` names.
    /// - Parameter options: What to reset first; nothing by default.
    public func resolve(reset options: FactoryResetOptions = .none) {
        ResolutionLock.withLock {
            let factory = reference()
            factory.reset(options)
            storage.object = factory() as AnyObject
            storage.isResolved = true
        }
    }

    /// The instance if resolved and still held elsewhere, else nil; never resolves.
    /// - Returns: The instance, or nil.
    public func resolvedOrNil() -> T? {
        ResolutionLock.withLock { storage.object as? T }
    }
}

/// Resolves a declaration of a shared container on every read: `@DynamicInjected(\.clock) var clock: Clock`.
@propertyWrapper public struct DynamicInjected<T> {
    private let reference: () -> Factory<T>

    /// Resolves `keyPath` of ``Container/shared`` on every read.
    /// - Parameter keyPath: The declaration.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = { Container.shared[keyPath: keyPath] }
    }

    /// Resolves `keyPath` of `C.shared` on every read.
    /// - Parameter keyPath: The declaration.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = { C.shared[keyPath: keyPath] }
    }

    /// A new resolve each time.
    public var wrappedValue: T { reference()() }

    /// The declaration.
    public var projectedValue: Factory<T> { reference() }
}

/// Resolves a type registered through ``Resolving`` when the enclosing value is made:
/// `@InjectedType var service: MyServiceType?`.
@propertyWrapper public struct InjectedType<T> {
    private var dependency: T?

    /// Resolves from ``Container/shared`` (nil unless it conforms to ``Resolving``).
    public init() {
        dependency = (Container.shared as? any Resolving)?.resolve(T.self)
    }

    /// Resolves from `container` (nil unless it conforms to ``Resolving``).
    /// - Parameter container: The container.
    public init(_ container: any ManagedContainer) {
        dependency = (container as? any Resolving)?.resolve(T.self)
    }

    /// The instance, or nil when nothing was registered; assignable.
    public var wrappedValue: T? {
        get { dependency }
        set { dependency = newValue }
    }
}

/// The shared container itself, as a property: `@InjectedContainer var container: Container`.
@propertyWrapper public struct InjectedContainer<C: SharedContainer>: Sendable {
    private var container: C

    /// ``Container/shared``.
    public init() where C == Container {
        container = Container.shared
    }

    /// `C.shared`.
    /// - Parameter type: The container type.
    public init(_ type: C.Type) {
        container = C.shared
    }

    /// The container; assignable.
    public var wrappedValue: C {
        get { container }
        set { container = newValue }
    }

    /// Resets the container.
    /// - Parameter options: What to drop; nothing by default.
    public mutating func reset(options: FactoryResetOptions = .none) {
        container.reset(options: options)
    }
}

/// A lazy wrapper's instance, read and written only under the resolution lock.
final class LazyStorage<T> {
    var value: T?
}

/// A weak lazy wrapper's instance, read and written only under the resolution lock.
final class WeakStorage {
    weak var object: AnyObject?
    var isResolved = false
}
