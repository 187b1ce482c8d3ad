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

/// What `Factory` and `SingletonFactory` are made of: each keeps these four as stored properties of its own (see
/// `AccessorCore`, "Resolving"), and shares what is built from them here.
@usableFromInline
protocol AccessorParts: TypedAccessor {
    /// The container, `nil` while unbound.
    var container: DependencyContainer? { get }
    var site: AccessorSite { get }
    var storage: DeclaredStorage { get }
    var make: @Sendable () throws -> Instance { get }

    init(
        container: DependencyContainer?, site: AccessorSite, storage: DeclaredStorage,
        make: @escaping @Sendable () throws -> Instance)
}

extension AccessorParts {
    /// An unbound accessor with `storage` (`.factory { … }`, `.single { … }`).
    @inlinable
    init(unbound storage: DeclaredStorage, make: @escaping @Sendable () throws -> Instance) {
        self.init(
            container: nil, site: AccessorSite(Instance.self, marker: Never.self, property: ""), storage: storage,
            make: make)
    }

    /// The same accessor, with its property hooks, and `storage`.
    @inlinable
    consuming func with(storage: ComponentScope) -> Self {
        Self(container: container, site: site, storage: self.storage.with(scope: storage), make: make)
    }

    /// The same accessor with `hook` after its property hooks (`resolvingProperties`).
    func adding(hook: @escaping Hook) -> Self {
        Self(container: container, site: site, storage: storage.adding(hook), make: make)
    }

    /// The same accessor whose declared default is `make`.
    func with(make: @escaping @Sendable () throws -> Instance) -> Self {
        Self(container: container, site: site, storage: storage, make: make)
    }

    /// Where the accessor is bound, for its key and messages.
    var binding: AccessorBinding {
        AccessorBinding(container: container, site: site)
    }

    /// The parts, for the cold paths (overrides, decorators, assignment).
    var core: AccessorCore<Instance> {
        AccessorCore(binding: binding, storage: storage, make: make)
    }
}

/// Where an accessor is bound: its container and declaration site, which stands for its key; no container for an
/// unbound value (`.factory { … }` before it is assigned). For the accessors' cold paths (overrides, decorators,
/// assignment, messages); resolving takes the parts from the accessor itself (see `AccessorCore`, "Resolving").
struct AccessorBinding: Sendable {
    let container: DependencyContainer?
    let site: AccessorSite

    /// `DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: "<Marker>.<property>")`, built once per site
    /// and container; `nil` when unbound.
    var key: DefinitionKey? {
        bound?.key
    }

    /// The container and the key, or `nil` when unbound.
    var bound: (container: DependencyContainer, key: DefinitionKey)? {
        guard let container else { return nil }
        return (container, container.accessorEntry(site).key)
    }

    /// Registers `make` under the accessor's key in its container, with `storage` (its scope and property hooks):
    /// `replace`. Generic in the instance type alone: an `AccessorCore` of it, made where `T` is not known at compile
    /// time, would look up its generic metadata on every call.
    func override<T>(storage: DeclaredStorage, make: @escaping @Sendable () throws -> T) {
        guard let container else {
            DependencyContainer.logUnboundOverride()
            return
        }
        container.registerOverride(at: site, storage: storage, make: make)
    }

    /// Binds the value assigned to an accessor (`accessor = .single { … }`), bound here, with `storage` and `make`,
    /// to the accessor's key at `target`: an unbound value registers its factory and storage; an accessor bound
    /// elsewhere registers a unique factory that resolves it. Generic in the instance type alone, as `override` is.
    func assign<T>(storage: DeclaredStorage, make: @escaping @Sendable () throws -> T, to target: AccessorBinding) {
        guard let container = target.container else { return }  // a namespace's binding always has its container
        guard let source = bound else {
            container.registerOverride(at: target.site, storage: storage, make: make)
            return
        }
        guard let target = target.bound, source.container !== target.container || source.key != target.key else {
            return
        }
        let other = AccessorCore(binding: self, storage: storage, make: make)
        target.container.registerOverride(target.key, storage: .unique) { try other.resolve() }
    }
}
