/// A typed accessor whose instance is one per container by default: a small value bound to a container and a
/// key, declared as a computed property of a ``Namespace``.
///
/// ```swift
/// extension DependencyContainer.Mappers {
///     var priceMapper: SingletonFactory<PriceMapper> {
///         get { resolve { DefaultPriceMapper() } }
///         set { inject(newValue) }
///     }
/// }
/// let mapper = DependencyContainer.shared.mappers.priceMapper()
///
/// container.mappers.priceMapper = .single { CustomMapper() }    // one instance
/// container.mappers.priceMapper = .factory { CustomMapper() }   // a new one every time
/// container.mappers.priceMapper.replace { CustomMapper() }      // keeps the declared storage
/// ```
///
/// Overrides (assignment, ``replace(_:)``, ``decorate(_:)``, or `register` under ``key``) take effect in the
/// container they are made in, drop the instance cached for the key, and are seen by every container that
/// collaborates with that container.
public struct SingletonFactory<T>: TypedAccessor, AccessorDeclaration, AccessorParts {
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

    /// The key the accessor resolves: its type, no arguments, and the tag `"<Namespace>.<property>"`; `nil` when
    /// unbound.
    public var key: DefinitionKey? { binding.key }

    /// The storage of the declared default factory (``ComponentScope/singleton`` unless a modifier changed it).
    public var scope: ComponentScope { storage.scope }

    /// An unbound factory for assignment to an accessor, which then keeps one instance.
    ///
    /// Until it is assigned it belongs to no container, so nothing keeps an instance for it: called directly, it
    /// makes a new one each time.
    /// - Parameter make: Makes the instance.
    /// - Returns: A value that the accessor's setter registers under its key as a ``ComponentScope/singleton``.
    @inlinable
    public static func single(_ make: @escaping @Sendable () throws -> T) -> SingletonFactory {
        SingletonFactory(unbound: .singleton, make: make)
    }

    /// An unbound factory that makes a new instance on every resolve, for assignment to an accessor: a singleton
    /// accessor may be given a unique factory.
    /// - Parameter make: Makes an instance.
    /// - Returns: A value that the accessor's setter registers under its key as ``ComponentScope/unique``.
    @inlinable
    public static func factory(_ make: @escaping @Sendable () throws -> T) -> SingletonFactory {
        SingletonFactory(unbound: .unique, make: make)
    }

    /// The same accessor, with the same storage and property hooks, whose declared default is `make` (what a
    /// context modifier such as ``AccessorDeclaration/onTest(_:caller:)`` returns when its context holds).
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    public func replacingDefault(_ make: @escaping @Sendable () throws -> T) -> SingletonFactory { with(make: make) }

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

    /// Overrides the accessor in its container with `make`, keeping the accessor's storage (one instance).
    /// - Parameter make: Makes the instance.
    public func replace(_ make: @escaping @Sendable () throws -> T) {
        AccessorBinding(container: container, site: site).override(storage: storage, make: make)
    }

    /// Adds a decorator in the accessor's container: the instance made for the key is passed through it (after
    /// the decorators added before) once, before it is cached. Drops the instance cached for the key.
    ///
    /// ```swift
    /// container.mappers.priceMapper.decorate { LoggingPriceMapper(decorating: $0) }
    /// container.mappers.priceMapper.decorate(LoggingPriceMapper.init)
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
    /// extension DependencyContainer.Sessions {
    ///     var session: SingletonFactory<Session> {
    ///         get {
    ///             resolve { Session() }
    ///                 .resolvingProperties { container, session in session.monitor = container.sessions.monitor() }
    ///         }
    ///         set { inject(newValue) }
    ///     }
    ///     var monitor: SingletonFactory<SessionMonitor> {
    ///         resolve { SessionMonitor(session: self.container.sessions.session()) }
    ///     }
    /// }
    /// ```
    ///
    /// Hooks run in the order added and belong to the declaration: ``replace(_:)`` keeps them; a value assigned to
    /// the accessor (`= .factory { … }`) or a `register` under ``key`` has none. Like storage modifiers, write it
    /// on the declaration.
    /// - Parameter hook: Sets properties of the instance; it may resolve other accessors. An error it throws
    ///   propagates out of ``resolve()`` (``callAsFunction()`` stops the process).
    /// - Returns: The accessor with the hook.
    public func resolvingProperties(_ hook: @escaping @Sendable (DependencyContainer, T) throws -> Void)
        -> SingletonFactory
    {
        adding { container, instance in
            if let instance = instance as? T { try hook(container, instance) }
        }
    }

    // MARK: Storage modifiers

    /// The same accessor with one instance kept by the container (the default).
    @inlinable public var singleton: SingletonFactory {
        consuming get { with(storage: .singleton) }
    }
    /// The same accessor with one instance that ``DependencyContainer/trimCaches()`` and memory pressure release.
    @inlinable public var cached: SingletonFactory {
        consuming get { with(storage: .cached) }
    }
    /// The same accessor with one instance kept while something outside holds it.
    @inlinable public var weakSingleton: SingletonFactory {
        consuming get { with(storage: .weakSingleton) }
    }
}
