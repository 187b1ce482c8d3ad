/// A property that Plexus fills after creating the instance that holds it, when auto-injection is on.
///
/// ``Injected`` and ``InjectedWeak`` conform; write your own box by conforming to it. Plexus finds boxes by
/// reflection (superclass properties first) and calls ``resolve(_:)`` with the container that owns the
/// instance's definition, while `container.context` describes the property being injected.
public protocol AutoInjectedPropertyBox: CompletedAfterResolution {
    /// The type the box resolves.
    static var wrappedType: Any.Type { get }

    /// Resolves the value and stores it. Throw to report a required property that cannot be resolved.
    /// - Parameter container: The container that owns the definition of the instance being injected.
    func resolve(_ container: DependencyContainer) throws
}

/// Settings shared by ``Injected`` and ``InjectedWeak``.
struct InjectionOptions {
    let required: Bool
    /// The tag to resolve with; `nil` with `overridesTag` means "no tag".
    let tag: DependencyContainer.Tag?
    /// Whether `tag` was given explicitly; otherwise the tag of the resolution being injected passes down.
    let overridesTag: Bool

    /// Resolves a value of `T` and hands it to `store`; leaves it alone when an optional property's type is not
    /// registered.
    func resolve<T>(_: T.Type, from container: DependencyContainer, store: (T) -> Void) throws {
        try container.resolveInjected(
            T.self, tag: overridesTag ? tag : container.tagInContext, required: required, handingTo: store)
    }
}

/// A property filled by auto-injection, held strongly.
///
/// ```swift
/// final class ListPresenter {
///     @Injected var interactor: ListInteractor?
///     @Injected(required: false, tag: "beta") var flags: FeatureFlags?
/// }
/// let presenter: ListPresenter = try container.resolve()   // presenter.interactor is set
/// ```
///
/// Also usable as a plain value: `let api = Injected<Api>()`, read with `api.value`. An explicit `tag: nil`
/// means "no tag"; without `tag:`, the tag the enclosing instance was resolved with passes down. A property
/// with `required: false` stays `nil` when its type is not registered; every other failure throws
/// ``ResolutionError/autoInjectionFailed(label:type:underlyingError:)``.
@propertyWrapper
public final class Injected<T>: AutoInjectedPropertyBox {
    let options: InjectionOptions
    /// `nil` when none was given: then nothing is called per injection.
    let didInject: ((T) -> Void)?
    // Not checked dynamically: the box is not `Sendable`, and its cell finishes every change before a value it drops
    // runs its `deinit` (Engine/README.md, the table of concurrency escapes).
    @exclusivity(unchecked) @usableFromInline
    var cell: InjectedCell

    /// The injected value, `nil` until injected.
    @inlinable
    public var value: T? {
        get { cell.value(as: T.self) }
        set {
            if let newValue { cell.store(newValue) } else { cell.clear(T.self) }
        }
    }

    /// The injected value, `nil` until injected.
    @inlinable
    public var wrappedValue: T? {
        get { cell.value(as: T.self) }
        set {
            if let newValue { cell.store(newValue) } else { cell.clear(T.self) }
        }
    }

    /// The type this property resolves.
    public static var wrappedType: Any.Type { T.self }

    /// Creates a required property with an initial value.
    /// - Parameter wrappedValue: The value until injection replaces it.
    public init(wrappedValue: T?) {
        cell = InjectedCell()
        options = InjectionOptions(required: true, tag: nil, overridesTag: false)
        didInject = nil
        if let wrappedValue { cell.store(wrappedValue) }
    }

    /// Creates a property that inherits the tag of the resolution it is injected in.
    /// - Parameter required: Whether failing to resolve the property fails the resolution (default `true`).
    public init(required: Bool = true) {
        options = InjectionOptions(required: required, tag: nil, overridesTag: false)
        didInject = nil
        cell = InjectedCell()
    }

    /// Creates a property that inherits the tag of the resolution it is injected in, and calls `didInject` with each
    /// value injected.
    /// - Parameters:
    ///   - required: Whether failing to resolve the property fails the resolution (default `true`).
    ///   - didInject: Called with the value after it is injected.
    public init(required: Bool = true, didInject: @escaping (T) -> Void) {
        options = InjectionOptions(required: required, tag: nil, overridesTag: false)
        self.didInject = didInject
        cell = InjectedCell()
    }

    /// Creates a property resolved with an explicit tag (`nil` means untagged).
    /// - Parameters:
    ///   - required: Whether failing to resolve the property fails the resolution (default `true`).
    ///   - tag: The tag to resolve with; `nil` for none.
    public init(required: Bool = true, tag: DependencyTagConvertible?) {
        options = InjectionOptions(required: required, tag: tag?.dependencyTag, overridesTag: true)
        didInject = nil
        cell = InjectedCell()
    }

    /// Creates a property resolved with an explicit tag (`nil` means untagged), which calls `didInject` with each
    /// value injected.
    /// - Parameters:
    ///   - required: Whether failing to resolve the property fails the resolution (default `true`).
    ///   - tag: The tag to resolve with; `nil` for none.
    ///   - didInject: Called with the value after it is injected.
    public init(required: Bool = true, tag: DependencyTagConvertible?, didInject: @escaping (T) -> Void) {
        options = InjectionOptions(required: required, tag: tag?.dependencyTag, overridesTag: true)
        self.didInject = didInject
        cell = InjectedCell()
    }

    deinit {
        cell.destroy(T.self)
    }

    /// Resolves the value from `container` and stores it.
    /// - Parameter container: The container that owns the definition of the instance being injected.
    /// - Throws: The resolution error, unless the property is optional and its type is not registered.
    public func resolve(_ container: DependencyContainer) throws {
        try options.resolve(T.self, from: container) { resolved in
            cell.store(resolved)
            didInject?(resolved)
        }
    }
}

/// A property filled by auto-injection, held weakly: use it for back-references that would otherwise form a
/// retain cycle (a view's presenter pointing back at the view).
///
/// ```swift
/// final class ListView {
///     @InjectedWeak var presenter: ListPresenter?
/// }
/// ```
///
/// The resolved value must be a class instance; the options are those of ``Injected``.
@propertyWrapper
public final class InjectedWeak<T>: AutoInjectedPropertyBox {
    let options: InjectionOptions
    let didInject: (T) -> Void
    private weak var object: AnyObject?

    /// The injected value, `nil` until injected or once freed.
    public var value: T? {
        get { object as? T }
        set { object = newValue.map { $0 as AnyObject } }
    }

    /// The injected value, `nil` until injected or once freed.
    public var wrappedValue: T? {
        get { value }
        set { value = newValue }
    }

    /// The type this property resolves.
    public static var wrappedType: Any.Type { T.self }

    /// Creates a required property with an initial value.
    /// - Parameter wrappedValue: The value until injection replaces it.
    public init(wrappedValue: T?) {
        options = InjectionOptions(required: true, tag: nil, overridesTag: false)
        didInject = { _ in }
        value = wrappedValue
    }

    /// Creates a property that inherits the tag of the resolution it is injected in.
    /// - Parameters:
    ///   - required: Whether failing to resolve the property fails the resolution (default `true`).
    ///   - didInject: Called with the value after it is injected.
    public init(required: Bool = true, didInject: @escaping (T) -> Void = { _ in }) {
        options = InjectionOptions(required: required, tag: nil, overridesTag: false)
        self.didInject = didInject
    }

    /// Creates a property resolved with an explicit tag (`nil` means untagged).
    /// - Parameters:
    ///   - required: Whether failing to resolve the property fails the resolution (default `true`).
    ///   - tag: The tag to resolve with; `nil` for none.
    ///   - didInject: Called with the value after it is injected.
    public init(required: Bool = true, tag: DependencyTagConvertible?, didInject: @escaping (T) -> Void = { _ in }) {
        options = InjectionOptions(required: required, tag: tag?.dependencyTag, overridesTag: true)
        self.didInject = didInject
    }

    /// Resolves the value from `container` and stores a weak reference to it.
    /// - Parameter container: The container that owns the definition of the instance being injected.
    /// - Throws: The resolution error, unless the property is optional and its type is not registered.
    public func resolve(_ container: DependencyContainer) throws {
        try options.resolve(T.self, from: container) { resolved in
            value = resolved
            didInject(resolved)
        }
    }
}
