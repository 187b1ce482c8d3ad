/// A group of typed accessors on one container, told apart by a marker type (SDK style).
///
/// Declare the namespace once, then its accessors in extensions:
///
/// ```swift
/// extension DependencyContainer {
///     enum NamespaceMappers {}
///     typealias Mappers = Namespace<NamespaceMappers>
///     var mappers: Mappers { namespace() }
/// }
///
/// extension DependencyContainer.Mappers {
///     var priceMapper: SingletonFactory<PriceMapper> {
///         get { resolve { DefaultPriceMapper() } }
///         set { inject(newValue) }
///     }
/// }
///
/// let mapper = DependencyContainer.shared.mappers.priceMapper()
/// DependencyContainer.shared.mappers.priceMapper = .single { CustomMapper() }
/// ```
///
/// An accessor's key is its type with the tag `"<Marker>.<property>"` (`"NamespaceMappers.priceMapper"`), where
/// `<Marker>` is the marker type's name without its module and `<property>` is the property's name, taken from
/// `#function` by `resolve { … }` in the getter and `inject(newValue)` in the setter. Two namespaces whose marker
/// types have the same name share keys: give markers distinct names.
///
/// A namespace is a class so that its accessors' setters work through the get-only `mappers` property.
public final class Namespace<Marker>: Sendable {
    /// The container the namespace's accessors resolve from and register overrides in.
    public let container: DependencyContainer

    @usableFromInline
    init(container: DependencyContainer) {
        self.container = container
    }

    func binding<T>(_: T.Type, _ property: String) -> AccessorBinding {
        AccessorBinding(container: container, site: site(T.self, property))
    }

    /// The site of the accessor `property` of this namespace.
    @inlinable
    func site<T>(_: T.Type, _ property: String) -> AccessorSite {
        AccessorSite(T.self, marker: Marker.self, property: property)
    }

    /// Declares a singleton accessor: its default factory, registered in the container on first use.
    ///
    /// Call it from the accessor's getter, where `#function` is the property's name.
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory.
    /// - Returns: The accessor, bound to this namespace's container and key.
    @inlinable
    public func resolve<T>(property: String = #function, _ make: @escaping @Sendable () throws -> T)
        -> SingletonFactory<T>
    {
        SingletonFactory(container: container, site: site(T.self, property), storage: .singleton, make: make)
    }

    /// Declares an accessor that makes a new instance on every resolve: its default factory, registered in the
    /// container on first use.
    ///
    /// Call it from the accessor's getter, where `#function` is the property's name.
    /// - Parameters:
    ///   - property: The property's name; leave the default.
    ///   - make: The default factory.
    /// - Returns: The accessor, bound to this namespace's container and key.
    @inlinable
    public func resolve<T>(property: String = #function, _ make: @escaping @Sendable () throws -> T) -> Factory<T> {
        Factory(container: container, site: site(T.self, property), storage: .unique, make: make)
    }

    /// Overrides a singleton accessor with the value assigned to it; call it from the accessor's setter.
    ///
    /// `.single { … }` and `.factory { … }` register their factory under the accessor's key in this container; an
    /// accessor bound to another key is resolved through.
    /// - Parameters:
    ///   - accessor: The value assigned (`newValue`).
    ///   - property: The property's name; leave the default.
    public func inject<T>(_ accessor: SingletonFactory<T>, property: String = #function) {
        let source = AccessorBinding(container: accessor.container, site: accessor.site)
        source.assign(storage: accessor.storage, make: accessor.make, to: binding(T.self, property))
    }

    /// Overrides an accessor with the value assigned to it; call it from the accessor's setter.
    /// - Parameters:
    ///   - accessor: The value assigned (`newValue`), typically `.factory { … }`.
    ///   - property: The property's name; leave the default.
    public func inject<T>(_ accessor: Factory<T>, property: String = #function) {
        let source = AccessorBinding(container: accessor.container, site: accessor.site)
        source.assign(storage: accessor.storage, make: accessor.make, to: binding(T.self, property))
    }
}

extension DependencyContainer {
    /// A namespace of typed accessors on this container; the marker type comes from the context.
    ///
    /// ```swift
    /// extension DependencyContainer {
    ///     enum NamespaceServices {}
    ///     typealias Services = Namespace<NamespaceServices>
    ///     var services: Services { namespace() }
    /// }
    /// ```
    /// - Returns: The namespace.
    @inlinable
    public func namespace<Marker>() -> Namespace<Marker> {
        Namespace(container: self)
    }
}
