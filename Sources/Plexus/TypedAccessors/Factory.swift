/// A typed accessor whose instances are made anew by default: a small value bound to a container and a key,
/// declared as a computed property.
///
/// Declare one on the container itself (Factory style), where `self { … }` gives the default factory and a
/// modifier its storage:
///
/// ```swift
/// extension DependencyContainer {
///     var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.cached }
///     var auth: Factory<AuthService> { self { AuthService(network: self.network()) } }   // unique
/// }
/// let analytics = container.analytics()
/// ```
///
/// or in a ``Namespace`` (SDK style), with a setter so that it can be overridden by assignment:
///
/// ```swift
/// extension DependencyContainer.Views {
///     var cellView: Factory<CellView> {
///         get { resolve { DefaultCellView() } }
///         set { inject(newValue) }
///     }
/// }
/// container.views.cellView = .factory { CustomCellView() }
/// ```
///
/// `Factory` has no `.single { … }`: a view or a data source must never be shared by accident, so an override of
/// a `Factory` makes new instances unless its declaration chose another storage. That is a compile-time rule:
/// `container.views.cellView = .single { … }` does not compile. Use ``SingletonFactory`` for what is shared.
///
/// Storage modifiers (``unique``, ``singleton``, …) belong on the declaration: the first use of an accessor in a
/// container registers its default with the storage that use carries, so a modifier written at a call site does
/// not give that call another storage, and, as a first use, would decide it for every later one.
///
/// Overrides (assignment, ``replace(_:)``, ``decorate(_:)``, or `register` under ``key``) take effect in the
/// container they are made in, drop the instance cached for the key, and are seen by every container that
/// collaborates with that container.
public struct Factory<T>: TypedAccessor, AccessorDeclaration, AccessorParts {
    /// The type of the accessor's factory.
    public typealias Make = @Sendable () throws -> T

    // Stored here rather than in a nested value, and seven words in all (see `AccessorCore`, "Resolving"): the
    // optimizer then takes the accessor apart, sees that the caller keeps the container for the call, and does
    // not retain it again. A word more (a fourth word in `AccessorSite`) and it did.
    /// The container the accessor is bound to, `nil` while unbound.
    public let container: DependencyContainer?
    @usableFromInline let site: AccessorSite
    @usableFromInline let storage: DeclaredStorage
    @usableFromInline let make: @Sendable () throws -> T

    @inlinable
    init(
        container: DependencyContainer?, site: AccessorSite, storage: DeclaredStorage,
        make: @escaping @Sendable () throws -> T
    ) {
        self.container = container
        self.site = site
        self.storage = storage
        self.make = make
    }

    /// The key the accessor resolves: its type, no arguments, and the tag `"<Namespace>.<property>"`
    /// (`"DependencyContainer.<property>"` for an accessor declared on the container); `nil` when unbound.
    public var key: DefinitionKey? { binding.key }

    /// The storage of the declared default factory.
    public var scope: ComponentScope { storage.scope }

    /// An unbound factory that makes a new instance on every resolve, for assignment to an accessor.
    ///
    /// ```swift
    /// container.views.cellView = .factory { CustomCellView() }
    /// ```
    /// - Parameter make: Makes an instance.
    /// - Returns: A value that the accessor's setter registers under its key.
    @inlinable
    public static func factory(_ make: @escaping @Sendable () throws -> T) -> Factory {
        Factory(unbound: .unique, make: make)
    }

    /// Factory's `Factory(self) { … }` spelling, which a native accessor does not use: the compiler names the one it
    /// does. (The `PlexusFactoryKit` product has Factory's spellings.)
    ///
    /// ```swift
    /// var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() } }
    /// ```
    @available(
        *, unavailable,
        message: "declare a Plexus accessor with 'self { … }' in its getter: 'var x: Factory<T> { self { … } }'"
    )
    public init(_ container: DependencyContainer, _ make: @escaping @Sendable () throws -> T) {
        fatalError("unavailable")
    }

    /// The same accessor, with the same storage and property hooks, whose declared default is `make` (what a
    /// context modifier such as ``AccessorDeclaration/onTest(_:caller:)`` returns when its context holds).
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    public func replacingDefault(_ make: @escaping @Sendable () throws -> T) -> Factory { with(make: make) }

    /// Overrides the accessor with `make` when `caller` is not the property that declares it (see
    /// ``AccessorDeclaration/overrideFromCallSite(_:caller:)``).
    /// - Parameters:
    ///   - make: The context's factory.
    ///   - caller: The `#function` of the code that wrote the modifier.
    public func overrideFromCallSite(_ make: @escaping @Sendable () throws -> T, caller: String) {
        if caller != site.property { replace(make) }
    }

    /// The instance: an override made in the container, else a definition under the same key in its
    /// collaborators, else the declared default (registered in the container on first use).
    ///
    /// Stops the process, in release builds too, with a message naming the path, when the accessors form a cycle
    /// or a dependency throws; use ``resolve()`` to get that error instead.
    @inlinable public func callAsFunction() -> T { AccessorCore.callAsFunction(container, site, storage, make) }

    /// The instance, as ``callAsFunction()`` gives it.
    /// - Returns: The instance.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and any error a factory on the way
    ///   throws.
    @inlinable public func resolve() throws -> T { try AccessorCore.resolve(container, site, storage, make) }

    /// Overrides the accessor in its container with `make`, keeping the accessor's storage.
    ///
    /// ```swift
    /// container.views.cellView.replace { CustomCellView() }
    /// ```
    /// - Parameter make: Makes an instance.
    public func replace(_ make: @escaping @Sendable () throws -> T) {
        AccessorBinding(container: container, site: site).override(storage: storage, make: make)
    }

    /// Adds a decorator in the accessor's container: every instance made for the key is passed through it (after
    /// the decorators added before) before it is cached or handed over. Drops the instance cached for the key.
    ///
    /// ```swift
    /// container.dataSources.list.decorate { var source = $0; source.itemSize = 400; return source }
    /// container.mappers.priceMapper.decorate(LoggingPriceMapper.init)   // init(decorating: PriceMapper)
    /// ```
    /// - Parameter decorator: Returns the instance to use instead of the one it is given.
    public func decorate(_ decorator: @escaping @Sendable (T) -> T) {
        core.decorate(decorator)
    }

    /// The same accessor with a property hook on its declared default: the hook runs on each new instance after the
    /// instance is made and kept in its storage, deferred until the outermost factory of the resolution graph has
    /// returned, like ``Definition/resolvingProperties(_:)``. It closes a cycle between accessors that would
    /// otherwise stop the process: one side is made without the other, and the hook sets the back-reference.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     var listView: Factory<ListView> {
    ///         self { ListView() }.shared
    ///             .resolvingProperties { container, view in view.presenter = container.listPresenter() }
    ///     }
    ///     var listPresenter: Factory<ListPresenter> { self { ListPresenter(view: self.listView()) }.shared }
    /// }
    /// let view = container.listView()   // view.presenter.view === view
    /// ```
    ///
    /// Hooks run in the order added and belong to the declaration: ``replace(_:)`` keeps them; a value assigned to
    /// the accessor (`= .factory { … }`) or a `register` under ``key`` has none. Like storage modifiers, write it
    /// on the declaration.
    /// - Parameter hook: Sets properties of the instance; it may resolve other accessors. An error it throws
    ///   propagates out of ``resolve()`` (``callAsFunction()`` stops the process).
    /// - Returns: The accessor with the hook.
    public func resolvingProperties(_ hook: @escaping @Sendable (DependencyContainer, T) throws -> Void) -> Factory {
        adding { container, instance in
            if let instance = instance as? T { try hook(container, instance) }
        }
    }

    // MARK: Storage modifiers
    //
    // Modifiers belong on declarations. The first use of an accessor in a container registers its declared default
    // with the storage that use carries, and later uses get that registration: a modifier written at a call site
    // (`container.analytics.unique()`) gives that call no other storage, and if it is the first use, it decides the
    // storage of every later one. To change an accessor's storage from outside, assign it (`= .factory { … }`).

    /// The same accessor making a new instance on every resolve (the default for `Factory`).
    @inlinable public var unique: Factory { consuming get { with(storage: .unique) } }
    /// The same accessor with one instance per resolution graph (``ComponentScope/shared``).
    @inlinable public var shared: Factory { consuming get { with(storage: .shared) } }
    /// The same accessor with one instance kept by the container (``ComponentScope/singleton``).
    @inlinable public var singleton: Factory { consuming get { with(storage: .singleton) } }
    /// The same accessor with one instance that ``DependencyContainer/trimCaches()`` and memory pressure release
    /// (``ComponentScope/cached``).
    @inlinable public var cached: Factory { consuming get { with(storage: .cached) } }
    /// The same accessor with one instance kept while something outside holds it
    /// (``ComponentScope/weakSingleton``).
    @inlinable public var weakSingleton: Factory { consuming get { with(storage: .weakSingleton) } }
}

extension DependencyContainer {
    /// Declares a typed accessor on the container itself (Factory style): `self { … }` gives its default factory,
    /// and a modifier (`.cached`, `.singleton`, `.shared`, `.weakSingleton`, `.unique`) its storage.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.cached }
    /// }
    /// ```
    ///
    /// The key's tag is `"DependencyContainer.<property>"`, where `#function` gives the property's name.
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, unique unless a modifier says otherwise.
    @inlinable
    public func callAsFunction<T>(property: String = #function, _ make: @escaping @Sendable () throws -> T)
        -> Factory<T>
    {
        Factory(
            container: self, site: AccessorSite(T.self, marker: DependencyContainer.self, property: property),
            storage: .unique, make: make)
    }
}
