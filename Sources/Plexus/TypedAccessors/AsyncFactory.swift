/// A typed accessor whose default factory is `async`: declared as a computed property, resolved with `await`.
///
/// ```swift
/// extension DependencyContainer {
///     var database: AsyncFactory<Database> { self { try await Database.open() }.singleton }
/// }
/// let database = try await container.database()
/// ```
///
/// It lives on the same registry and resolution graph as `register { () async throws -> T in … }` definitions: its
/// key is its type, no arguments, and the tag `"DependencyContainer.<property>"`; an override made with
/// ``replace(_:)`` or an async `register` under ``key`` takes its place, here or in a collaborator, as for
/// ``Factory``. Every storage works: a singleton is made once even when many tasks ask for it while its factory
/// suspends (the others wait without blocking a thread), and a creation that throws or is cancelled leaves nothing
/// kept, so the next call tries again. A synchronous `try container.resolve(tag:)` of an async override under its
/// key throws ``ResolutionError/requiresAwait(key:)`` rather than block.
public struct AsyncFactory<T>: AccessorDeclaration, IsolatedAccessorParts {
    /// The type of the instances.
    public typealias Instance = T
    /// The type of the accessor's factory.
    public typealias Make = @Sendable () async throws -> T

    /// The container the accessor is bound to, `nil` while unbound.
    public let container: DependencyContainer?
    @usableFromInline let site: AccessorSite
    @usableFromInline let storage: ComponentScope
    @usableFromInline let make: @Sendable () async throws -> T

    @inlinable
    init(
        container: DependencyContainer?, site: AccessorSite, storage: ComponentScope,
        make: @escaping @Sendable () async throws -> T
    ) {
        self.container = container
        self.site = site
        self.storage = storage
        self.make = make
    }

    @usableFromInline
    static func blueprint(scope: ComponentScope, make: @escaping @Sendable () async throws -> T) -> Blueprint {
        Blueprint.makeAsync(scope: scope, factory: make)
    }

    /// The key the accessor resolves: its type, no arguments, and the tag `"<Namespace>.<property>"`; `nil` when
    /// unbound.
    public var key: DefinitionKey? { boundKey }

    /// The storage of the declared default factory.
    public var scope: ComponentScope { storage }

    /// The instance: an override made in the container, else a definition under the same key in its
    /// collaborators, else the declared default (registered in the container on first use).
    /// - Returns: The instance, after every property hook of its resolution graph has run.
    /// - Throws: ``ResolutionError`` for a cycle or a missing dependency, and any error a factory on the way throws.
    @inlinable
    public func callAsFunction() async throws -> T {
        guard let container else { return try await make() }
        // A singleton made already is copied without the async resolve, which would find it too.
        if let published = AsyncAccessorCore<T>.published(container, site) { return published }
        return try await container.resolveAsyncAccessor(site, storage: storage, make: make)
    }

    /// Overrides the accessor in its container with `make`, keeping the accessor's storage; drops the instance kept
    /// for the key.
    ///
    /// ```swift
    /// container.database.replace { InMemoryDatabase() }
    /// ```
    /// - Parameter make: Makes an instance; it may `await`.
    public func replace(_ make: @escaping @Sendable () async throws -> T) { override(with: make) }

    /// Adds a decorator in the accessor's container: every instance made for the key is passed through it (after
    /// the decorators added before) once, before it is kept or handed over. Drops the instance kept for the key.
    /// - Parameter decorator: Returns the instance to use instead of the one it is given.
    public func decorate(_ decorator: @escaping @Sendable (T) -> T) { addDecorator(decorator) }

    /// The same accessor, with the same storage, whose declared default is `make` (what a context modifier such as
    /// ``AccessorDeclaration/onTest(_:caller:)`` returns when its context holds).
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    public func replacingDefault(_ make: @escaping @Sendable () async throws -> T) -> AsyncFactory {
        with(make: make)
    }

    /// Overrides the accessor with `make` when `caller` is not the property that declares it (see
    /// ``AccessorDeclaration/overrideFromCallSite(_:caller:)``).
    /// - Parameters:
    ///   - make: The context's factory.
    ///   - caller: The `#function` of the code that wrote the modifier.
    public func overrideFromCallSite(_ make: @escaping @Sendable () async throws -> T, caller: String) {
        if caller != site.property { replace(make) }
    }

    // MARK: Storage modifiers

    /// The same accessor making a new instance on every call (the default).
    @inlinable public var unique: AsyncFactory { with(storage: .unique) }
    /// The same accessor with one instance per resolution graph (``ComponentScope/shared``).
    @inlinable public var shared: AsyncFactory { with(storage: .shared) }
    /// The same accessor with one instance kept by the container (``ComponentScope/singleton``).
    @inlinable public var singleton: AsyncFactory { with(storage: .singleton) }
    /// The same accessor with one instance that ``DependencyContainer/trimCaches()`` and memory pressure release.
    @inlinable public var cached: AsyncFactory { with(storage: .cached) }
    /// The same accessor with one instance kept while something outside holds it.
    @inlinable public var weakSingleton: AsyncFactory { with(storage: .weakSingleton) }
}

/// A typed accessor whose default factory is `@MainActor` code: a view model or presenter, made and called on the
/// main actor.
///
/// ```swift
/// extension DependencyContainer {
///     var catalog: MainActorFactory<CatalogViewModel> { self { @MainActor in CatalogViewModel() } }
/// }
/// @MainActor func show() { let model = container.catalog() }
/// ```
///
/// It lives on the same registry and resolution graph as `register { @MainActor in … }` definitions, and resolves
/// as ``Factory`` does (override, collaborators, declared default). Its factory runs synchronously, on the main
/// actor; from elsewhere, hop there first (`await MainActor.run { container.catalog() }`).
public struct MainActorFactory<T>: AccessorDeclaration, IsolatedAccessorParts {
    /// The type of the instances.
    public typealias Instance = T
    /// The type of the accessor's factory.
    public typealias Make = @MainActor @Sendable () throws -> T

    /// The container the accessor is bound to, `nil` while unbound.
    public let container: DependencyContainer?
    @usableFromInline let site: AccessorSite
    @usableFromInline let storage: ComponentScope
    @usableFromInline let make: @MainActor @Sendable () throws -> T

    @inlinable
    init(
        container: DependencyContainer?, site: AccessorSite, storage: ComponentScope,
        make: @escaping @MainActor @Sendable () throws -> T
    ) {
        self.container = container
        self.site = site
        self.storage = storage
        self.make = make
    }

    @usableFromInline
    static func blueprint(scope: ComponentScope, make: @escaping @MainActor @Sendable () throws -> T) -> Blueprint {
        Blueprint.makeMainActor(scope: scope, factory: make)
    }

    /// The key the accessor resolves: its type, no arguments, and the tag `"<Namespace>.<property>"`; `nil` when
    /// unbound.
    public var key: DefinitionKey? { boundKey }

    /// The storage of the declared default factory.
    public var scope: ComponentScope { storage }

    /// The instance, made on the main actor: an override made in the container, else a definition under the same
    /// key in its collaborators, else the declared default.
    ///
    /// Stops the process, in release builds too, with a message naming the path, when the accessors form a cycle
    /// or a dependency throws; use ``resolve()`` to get that error instead.
    @MainActor
    public func callAsFunction() -> T {
        do {
            return try resolve()
        } catch {
            DependencyContainer.accessorFailed(container, site, error)
        }
    }

    /// The instance, as ``callAsFunction()`` gives it.
    /// - Returns: The instance.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and any error a factory on the way
    ///   throws.
    @MainActor
    @inlinable
    public func resolve() throws -> T {
        guard let container else { return try make() }
        return try MainActorAccessorCore.resolve(container, site, storage, make)
    }

    /// Overrides the accessor in its container with `make`, keeping the accessor's storage; drops the instance kept
    /// for the key.
    /// - Parameter make: Makes an instance on the main actor.
    public func replace(_ make: @escaping @MainActor @Sendable () throws -> T) { override(with: make) }

    /// Adds a decorator in the accessor's container: every instance made for the key is passed through it (after
    /// the decorators added before) once, before it is kept or handed over. Drops the instance kept for the key.
    /// - Parameter decorator: Returns the instance to use instead of the one it is given.
    public func decorate(_ decorator: @escaping @Sendable (T) -> T) { addDecorator(decorator) }

    /// The same accessor, with the same storage, whose declared default is `make` (what a context modifier such as
    /// ``AccessorDeclaration/onTest(_:caller:)`` returns when its context holds).
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    public func replacingDefault(_ make: @escaping @MainActor @Sendable () throws -> T) -> MainActorFactory {
        with(make: make)
    }

    /// Overrides the accessor with `make` when `caller` is not the property that declares it (see
    /// ``AccessorDeclaration/overrideFromCallSite(_:caller:)``).
    /// - Parameters:
    ///   - make: The context's factory.
    ///   - caller: The `#function` of the code that wrote the modifier.
    public func overrideFromCallSite(_ make: @escaping @MainActor @Sendable () throws -> T, caller: String) {
        if caller != site.property { replace(make) }
    }

    // MARK: Storage modifiers

    /// The same accessor making a new instance on every call (the default).
    @inlinable public var unique: MainActorFactory { with(storage: .unique) }
    /// The same accessor with one instance per resolution graph (``ComponentScope/shared``).
    @inlinable public var shared: MainActorFactory { with(storage: .shared) }
    /// The same accessor with one instance kept by the container (``ComponentScope/singleton``).
    @inlinable public var singleton: MainActorFactory { with(storage: .singleton) }
    /// The same accessor with one instance that ``DependencyContainer/trimCaches()`` and memory pressure release.
    @inlinable public var cached: MainActorFactory { with(storage: .cached) }
    /// The same accessor with one instance kept while something outside holds it.
    @inlinable public var weakSingleton: MainActorFactory { with(storage: .weakSingleton) }
}

/// What ``AsyncFactory`` and ``MainActorFactory`` are made of, and what they do alike: they differ only in the kind
/// of their factory (`Make`), the blueprint made from it, and how they are called.
///
/// Usable from inlinable code, so that the storage modifiers (`with(storage:)`) are inlined where the accessor is
/// declared: called through the library, they looked up the accessor type's generic metadata on every call
/// (`Benchmarks/profile --product PlexusProfile accessor-main-actor/plexus`).
@usableFromInline
protocol IsolatedAccessorParts: AccessorDeclaration {
    var site: AccessorSite { get }
    var storage: ComponentScope { get }
    var make: Make { get }

    init(container: DependencyContainer?, site: AccessorSite, storage: ComponentScope, make: Make)

    /// The blueprint of a definition whose factory is `make`, with `scope`.
    static func blueprint(scope: ComponentScope, make: Make) -> Blueprint
}

extension IsolatedAccessorParts {
    /// The key, `nil` when unbound.
    var boundKey: DefinitionKey? { AccessorBinding(container: container, site: site).key }

    /// The same accessor with `storage`: what the storage modifiers return.
    @inlinable
    func with(storage: ComponentScope) -> Self {
        Self(container: container, site: site, storage: storage, make: make)
    }

    func with(make: Make) -> Self {
        Self(container: container, site: site, storage: storage, make: make)
    }

    /// Registers `make` under the key in the container, with the accessor's storage (`replace`).
    func override(with make: Make) {
        guard let container, let key = boundKey else {
            DependencyContainer.logUnboundOverride()
            return
        }
        container.register(
            Self.blueprint(scope: storage, make: make), key: key, hash: KeyTable<Slot>.hash(key), recipe: Recipe.plain)
    }

    /// Adds `decorator` for the key in the container (`decorate`).
    func addDecorator(_ decorator: @escaping @Sendable (Instance) -> Instance) {
        guard let container, let key = boundKey else {
            DependencyContainer.logUnboundDecorator()
            return
        }
        container.addDecorator(key, decorator)
    }
}

extension DependencyContainer {
    /// Declares a typed accessor with an `async` default factory on the container itself.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     var database: AsyncFactory<Database> { self { try await Database.open() }.singleton }
    /// }
    /// ```
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, unique unless a modifier says otherwise.
    @inlinable
    public func callAsFunction<T>(
        property: String = #function, _ make: @escaping @Sendable () async throws -> T
    ) -> AsyncFactory<T> {
        AsyncFactory(
            container: self, site: AccessorSite(T.self, marker: DependencyContainer.self, property: property),
            storage: .unique, make: make)
    }

    /// Declares a typed accessor with a `@MainActor` default factory on the container itself.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     var catalog: MainActorFactory<CatalogViewModel> { self { @MainActor in CatalogViewModel() } }
    /// }
    /// ```
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, unique unless a modifier says otherwise.
    @inlinable
    public func callAsFunction<T>(
        property: String = #function, _ make: @escaping @MainActor @Sendable () throws -> T
    ) -> MainActorFactory<T> {
        MainActorFactory(
            container: self, site: AccessorSite(T.self, marker: DependencyContainer.self, property: property),
            storage: .unique, make: make)
    }

    /// Resolves an ``AsyncFactory``: one async resolve, with the declared default registered here on first use.
    @usableFromInline
    func resolveAsyncAccessor<T>(
        _ site: AccessorSite, storage: ComponentScope, make: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await resolveAsyncAccessor(accessorKey(site)) { Blueprint.makeAsync(scope: storage, factory: make) }
    }

    /// Resolves the accessor under `key` with one async resolve, its declared default the blueprint `declared` makes
    /// (registered here on first use): an ``AsyncFactory``, or a ``MainActorFactory`` from outside the main actor.
    func resolveAsyncAccessor<T>(_ key: DefinitionKey, declared: @escaping () -> Blueprint) async throws -> T {
        try await resolveAsync(
            arguments: (),
            deliver: { instance in
                guard let typed = instance as? T else {
                    throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
                }
                return typed
            },
            segment: { _ in
                try self.resolveExactSegment(key) { DeclaredDefault(declared()) }
            })
    }
}

extension Namespace {
    /// Declares an accessor with an `async` default factory, which makes a new instance on every call unless a
    /// modifier says otherwise; call it from the accessor's getter, where `#function` is the property's name.
    ///
    /// ```swift
    /// extension DependencyContainer.Stores {
    ///     var database: AsyncFactory<Database> { resolve { try await Database.open() }.singleton }
    /// }
    /// ```
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, bound to this namespace's container and key.
    @inlinable
    public func resolve<T>(
        property: String = #function, _ make: @escaping @Sendable () async throws -> T
    ) -> AsyncFactory<T> {
        AsyncFactory(container: container, site: site(T.self, property), storage: .unique, make: make)
    }

    /// Declares an accessor with a `@MainActor` default factory, which makes a new instance on every call unless a
    /// modifier says otherwise; call it from the accessor's getter, where `#function` is the property's name.
    ///
    /// ```swift
    /// extension DependencyContainer.Screens {
    ///     var catalog: MainActorFactory<CatalogViewModel> { resolve { @MainActor in CatalogViewModel() } }
    /// }
    /// ```
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory, registered in the container on first use.
    /// - Returns: The accessor, bound to this namespace's container and key.
    @inlinable
    public func resolve<T>(
        property: String = #function, _ make: @escaping @MainActor @Sendable () throws -> T
    ) -> MainActorFactory<T> {
        MainActorFactory(container: container, site: site(T.self, property), storage: .unique, make: make)
    }
}
