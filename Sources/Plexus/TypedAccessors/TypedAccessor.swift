/// A typed accessor: a ``Factory`` or ``SingletonFactory`` bound to a container and a key, which gives the
/// instance it describes.
///
/// Both accessor types adopt it, so the key-path property wrappers (``Inject`` and ``LazyInject``) take either.
/// You rarely use the protocol directly.
public protocol TypedAccessor: Sendable {
    /// The type of the instances.
    associatedtype Instance

    /// The key the accessor resolves, or `nil` for an unbound value such as `.factory { … }` before it is
    /// assigned to an accessor.
    var key: DefinitionKey? { get }

    /// The instance; stops the process if it cannot be made (a cycle between accessors, or an error thrown by a
    /// dependency). Use ``resolve()`` to get that error instead.
    func callAsFunction() -> Instance

    /// The instance.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and any error a factory on the way
    ///   throws.
    func resolve() throws -> Instance
}

/// Where an accessor is bound: its container and declaration site, which stands for its key.
///
/// The accessor types and their small methods are `@inlinable`, so that a client specializes them for its own types:
/// unspecialized, each call looked up the generic metadata of `AccessorCore<T>` (about 300 instructions a time).
@usableFromInline
struct AccessorBinding: Sendable {
    @usableFromInline let container: DependencyContainer
    @usableFromInline let site: AccessorSite

    /// The accessor `property` of the namespace (or container) whose marker type is `marker`.
    @inlinable
    init<T>(_: T.Type, container: DependencyContainer, marker: Any.Type, property: String) {
        self.container = container
        self.site = AccessorSite(type: T.self, marker: marker, property: property)
    }

    /// The common resolves, not generic: see `DependencyContainer.resolveAccessor(_:into:)`.
    @usableFromInline
    func resolve(into result: UnsafeMutableRawPointer) throws -> Bool {
        try container.resolveAccessor(site, into: result)
    }

    /// `DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: "<Marker>.<property>")`, built once per site
    /// and container.
    var key: DefinitionKey {
        container.registry.withLock { $0.accessorKeys.entry(for: site).key }
    }
}

/// What `Factory` and `SingletonFactory` both are: a declared default factory and its storage, bound or not.
@usableFromInline
struct AccessorCore<T>: Sendable {
    @usableFromInline let binding: AccessorBinding?
    @usableFromInline let scope: ComponentScope
    @usableFromInline let make: @Sendable () throws -> T

    @inlinable
    init(binding: AccessorBinding?, scope: ComponentScope, make: @escaping @Sendable () throws -> T) {
        self.binding = binding
        self.scope = scope
        self.make = make
    }

    /// The same accessor with another storage. Consuming, so that a modifier on a declaration
    /// (`self { … }.singleton`) moves the accessor instead of copying it (a copy retains its container).
    @inlinable
    consuming func with(scope: ComponentScope) -> AccessorCore {
        AccessorCore(binding: binding, scope: scope, make: make)
    }

    @inlinable
    func resolve() throws -> T {
        // The common cases fill storage specialized here, through a call that is not generic (generic code in the
        // library would look up the metadata of the types it builds around `T` on every call). Optional chaining
        // borrows the binding where it is stored: unwrapping it into a local would copy it, retaining its container.
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            if let storage = buffer.baseAddress, try binding?.resolve(into: UnsafeMutableRawPointer(storage)) == true {
                return storage.move()
            }
            return try resolveInGeneral()
        }
    }

    /// `resolve()` for an unbound accessor, and for the accessors the non-generic call cannot answer (first use, an
    /// override elsewhere, hooks).
    @usableFromInline
    func resolveInGeneral() throws -> T {
        guard let binding else { return try make() }
        return try binding.container.resolveAccessor(binding.site, scope: scope, make: make)
    }

    @inlinable
    func callAsFunction() -> T {
        do {
            return try resolve()
        } catch {
            DependencyContainer.accessorFailed(binding, error)
        }
    }

    /// Registers `make` under this accessor's key in its container, with `scope`.
    func override(scope: ComponentScope, make: @escaping @Sendable () throws -> T) {
        guard let binding else {
            log(.errors, "Plexus: an unbound accessor cannot be overridden; assign it to an accessor property first.")
            return
        }
        binding.container.registerOverride(binding.key, scope: scope, make: make)
    }

    /// Binds the value assigned to an accessor (`accessor = .single { … }`) to the accessor's key: an unbound value
    /// registers its factory and storage; an accessor bound elsewhere registers a unique factory that resolves it.
    func assign(to target: AccessorBinding) {
        guard let source = binding else {
            target.container.registerOverride(target.key, scope: scope, make: make)
            return
        }
        guard source.container !== target.container || source.key != target.key else { return }
        let other = self
        target.container.registerOverride(target.key, scope: .unique) { try other.resolve() }
    }

    func decorate(_ decorator: @escaping @Sendable (T) -> T) {
        guard let binding else {
            log(.errors, "Plexus: an unbound accessor cannot be decorated; decorate the accessor property.")
            return
        }
        binding.container.addDecorator(binding.key, decorator)
    }
}
