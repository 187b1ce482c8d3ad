/// A typed accessor whose instances are made from a runtime argument: a small value bound to a container and a key,
/// declared as a computed property and called with the argument.
///
/// ```swift
/// extension DependencyContainer {
///     var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) } }
///     var row: ParameterFactory<(Int, String), Row> { self { id, title in Row(id: id, title: title) }.singleton }
/// }
/// let detail = container.detail(42)
/// let row = container.row((7, "Inbox"))
/// ```
///
/// Several arguments are one tuple. The key is the instance type with the argument type as its type of arguments and
/// the tag `"<Namespace>.<property>"`, so a keyed `register(tag: "DependencyContainer.detail") { (id: Int) in … }`
/// overrides it, and ``DependencyContainer/validate(_:)-2t1ea`` given an argument set (`validate(42)`) resolves it
/// and shows it in the graph report, as for any definition that takes arguments.
///
/// It resolves as ``Factory`` does: an override in the container, else a definition under exactly the key in its
/// collaborators, else the declared default, registered in the container on first use. Storage: ``unique`` (the
/// default) makes an instance per call; ``singleton`` keeps one instance per argument value, made once even when
/// several threads ask for the same value at the same time, when the argument is `Hashable` or a tuple of `Hashable`
/// values; any other argument cannot be told apart from another, so the accessor then makes an instance per call, as
/// `unique` does. A singleton accessor keeps the instance of every argument value it was called with until
/// ``AccessorDeclaration/reset(_:)`` (or an override, a decorator, the container's `reset()`) drops them all; the
/// argument's `hash(into:)` and `==` run without any lock held.
///
/// There is no `.shared`, `.cached` or `.weakSingleton`: one instance per argument value for a single resolution
/// graph is rarely what a caller asking for one detail needs, and an instance released by memory pressure or by its
/// last owner would leave its argument value in the table that tells values apart, which would then grow without
/// bound. For a cache that lets go, keep one in a ``SingletonFactory`` and call it from the factory.
///
/// As for a keyed definition with arguments, a factory that calls its own accessor again, with any argument, is a
/// cycle: ``resolve(_:)`` throws ``ResolutionError/circularDependency(path:)``.
public struct ParameterFactory<P: Sendable, T>: AccessorDeclaration {
    /// The type of the instances.
    public typealias Instance = T
    /// The type of the accessor's factory.
    public typealias Make = @Sendable (P) throws -> T

    /// The container the accessor is bound to, `nil` while unbound.
    public let container: DependencyContainer?
    @usableFromInline let site: AccessorSite
    @usableFromInline let storage: ComponentScope
    @usableFromInline let make: @Sendable (P) throws -> T

    @inlinable
    init(
        container: DependencyContainer?, site: AccessorSite, storage: ComponentScope,
        make: @escaping @Sendable (P) throws -> T
    ) {
        self.container = container
        self.site = site
        self.storage = storage
        self.make = make
    }

    /// The key the accessor resolves: its type, the argument type as the type of arguments, and the tag
    /// `"<Namespace>.<property>"`; `nil` when unbound.
    public var key: DefinitionKey? {
        container.map { _ in parameterKey }
    }

    var parameterKey: DefinitionKey { site.key }

    /// The storage of the declared default: ``ComponentScope/unique`` or ``ComponentScope/singleton`` (one instance
    /// per argument value).
    public var scope: ComponentScope { storage }

    /// An unbound factory that makes a new instance on every call, for assignment to an accessor in a namespace.
    /// - Parameter make: Makes an instance from the argument.
    /// - Returns: A value that the accessor's setter registers under its key.
    @inlinable
    public static func factory(_ make: @escaping @Sendable (P) throws -> T) -> ParameterFactory {
        ParameterFactory(
            container: nil, site: AccessorSite(T.self, arguments: P.self, marker: Never.self, property: ""),
            storage: .unique,
            make: make)
    }

    /// Factory's `ParameterFactory(self) { … }` spelling, which a native accessor does not use: the compiler names
    /// the one it does. (The `PlexusFactoryKit` product has Factory's spellings.)
    ///
    /// ```swift
    /// var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) } }
    /// ```
    @available(
        *, unavailable,
        message:
            "declare a Plexus accessor with 'self { … }' in its getter: 'var x: ParameterFactory<P, T> { self { p in … } }'"
    )
    public init(_ container: DependencyContainer, _ make: @escaping @Sendable (P) throws -> T) {
        fatalError("unavailable")
    }

    /// The instance for `argument`: an override made in the container, else a definition under the same key in
    /// its collaborators, else the declared default.
    ///
    /// Stops the process, in release builds too, with a message naming the path, when the accessors form a cycle
    /// or a dependency throws; use ``resolve(_:)`` to get that error instead.
    /// - Parameter argument: The runtime argument (a tuple for several).
    /// - Returns: The instance.
    public func callAsFunction(_ argument: P) -> T {
        do {
            return try resolve(argument)
        } catch {
            DependencyContainer.accessorFailed(container, site, error)
        }
    }

    /// The instance for `argument`, as ``callAsFunction(_:)`` gives it.
    /// - Parameter argument: The runtime argument (a tuple for several).
    /// - Returns: The instance.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and any error a factory on the way
    ///   throws.
    @inlinable
    public func resolve(_ argument: P) throws -> T {
        guard let container else { return try make(argument) }
        return try ParameterAccessorCore.resolve(container, site, storage, make, argument)
    }

    /// Overrides the accessor in its container with `make`, keeping the accessor's storage; drops the instances
    /// kept for the key.
    ///
    /// ```swift
    /// container.detail.replace { id in MockDetail(id: id) }
    /// ```
    /// - Parameter make: Makes an instance from the argument.
    @inlinable
    public func replace(_ make: @escaping @Sendable (P) throws -> T) {
        guard let container else { return DependencyContainer.logUnboundOverride() }
        container.registerParameterOverride(
            site.key, storage: storage, make: make, build: ParameterAccessorCore.factory)
    }

    /// Adds a decorator in the accessor's container: every instance made for the key is passed through it (after
    /// the decorators added before) once, before it is kept or handed over. Drops the instances kept for the key.
    ///
    /// ```swift
    /// container.detail.decorate { LoggingDetail(decorating: $0) }
    /// ```
    /// - Parameter decorator: Returns the instance to use instead of the one it is given.
    public func decorate(_ decorator: @escaping @Sendable (T) -> T) {
        guard let container else {
            DependencyContainer.logUnboundDecorator()
            return
        }
        container.addParameterDecorator(parameterKey, decorator)
    }

    /// The same accessor, with the same storage, whose declared default is `make` (what a context modifier such as
    /// ``AccessorDeclaration/onTest(_:caller:)`` returns when its context holds).
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    public func replacingDefault(_ make: @escaping @Sendable (P) throws -> T) -> ParameterFactory {
        ParameterFactory(container: container, site: site, storage: storage, make: make)
    }

    /// Overrides the accessor with `make` when `caller` is not the property that declares it (see
    /// ``AccessorDeclaration/overrideFromCallSite(_:caller:)``).
    /// - Parameters:
    ///   - make: The context's factory.
    ///   - caller: The `#function` of the code that wrote the modifier.
    public func overrideFromCallSite(_ make: @escaping @Sendable (P) throws -> T, caller: String) {
        if caller != site.property { replace(make) }
    }

    // MARK: Storage modifiers

    /// The same accessor making a new instance on every call (the default).
    @inlinable public var unique: ParameterFactory { with(storage: .unique) }

    /// The same accessor keeping one instance per argument value in the container, when the argument is
    /// `Hashable` or a tuple of `Hashable` values; otherwise it makes one per call, as ``unique`` does.
    @inlinable public var singleton: ParameterFactory { with(storage: .singleton) }

    @inlinable
    func with(storage: ComponentScope) -> ParameterFactory {
        ParameterFactory(container: container, site: site, storage: storage, make: make)
    }
}

extension DependencyContainer {
    /// Declares a typed accessor taking a runtime argument on the container itself: `self { argument in … }` gives
    /// its default factory, and a modifier (`.singleton`) its storage.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) } }
    /// }
    /// let detail = container.detail(42)
    /// ```
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, unique unless a modifier says otherwise.
    @inlinable
    public func callAsFunction<P: Sendable, T>(
        property: String = #function, _ make: @escaping @Sendable (P) throws -> T
    )
        -> ParameterFactory<P, T>
    {
        ParameterFactory(
            container: self,
            site: AccessorSite(T.self, arguments: P.self, marker: DependencyContainer.self, property: property),
            storage: .unique, make: make)
    }
}

extension Namespace {
    /// Declares an accessor taking a runtime argument, which makes a new instance on every call unless a modifier
    /// says otherwise: its default factory, registered in the container on first use.
    ///
    /// ```swift
    /// extension DependencyContainer.Screens {
    ///     var detail: ParameterFactory<Int, Detail> {
    ///         get { resolve { id in Detail(id: id) } }
    ///         set { inject(newValue) }
    ///     }
    /// }
    /// ```
    ///
    /// Call it from the accessor's getter, where `#function` is the property's name.
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory.
    /// - Returns: The accessor, bound to this namespace's container and key.
    @inlinable
    public func resolve<P: Sendable, T>(property: String = #function, _ make: @escaping @Sendable (P) throws -> T)
        -> ParameterFactory<P, T>
    {
        ParameterFactory(
            container: container,
            site: AccessorSite(T.self, arguments: P.self, marker: Marker.self, property: property),
            storage: .unique, make: make)
    }

    /// Overrides an accessor taking a runtime argument with the value assigned to it; call it from the accessor's
    /// setter. `.factory { … }` registers its factory under the accessor's key in this container; an accessor bound
    /// to another key is resolved through.
    /// - Parameters:
    ///   - accessor: The value assigned (`newValue`).
    ///   - property: The property's name; leave the default.
    public func inject<P: Sendable, T>(_ accessor: ParameterFactory<P, T>, property: String = #function) {
        let key = AccessorSite(T.self, arguments: P.self, marker: Marker.self, property: property).key
        if accessor.container == nil {
            container.registerParameterOverride(
                key, storage: accessor.storage, make: accessor.make, build: ParameterAccessorCore.factory)
        } else if accessor.container !== container || accessor.parameterKey != key {
            container.registerParameterOverride(
                key, storage: .unique, make: { try accessor.resolve($0) }, build: ParameterAccessorCore.factory)
        }
    }
}
