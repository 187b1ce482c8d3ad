/// Where a typed accessor is declared: the type it gives, its namespace's marker type (`DependencyContainer` for an
/// accessor declared on the container itself) and the property's name (`#function`).
///
/// A site stands for the accessor's key without building it: the key's tag `"<Marker>.<property>"` is a new string,
/// so it is built once per site and container (`AccessorKeys`), not on every call.
///
/// The type, the marker and, for a ``ParameterFactory``, the argument type are one metatype,
/// `AccessorIdentity<Marker, T>.self` or `ParameterAccessorIdentity<Marker, P, T>.self`: a site is three words, so that an
/// accessor value (container, site, storage, factory) stays small enough for the optimizer to take it apart. One word
/// more, and every call retained and released the accessor's container (the retain check of
/// `Benchmarks/guard`: the release build kept the accessor in memory as a whole).
@usableFromInline
struct AccessorSite: Sendable {
    /// `AccessorIdentity<Marker, T>.self`, or `ParameterAccessorIdentity<Marker, P, T>.self`.
    @usableFromInline let identity: Any.Type
    @usableFromInline let property: String

    /// The site of the accessor `property` of type `T` declared in the namespace whose marker type is `Marker`.
    @inlinable
    init<Marker, T>(_: T.Type, marker _: Marker.Type, property: String) {
        self.identity = AccessorIdentity<Marker, T>.self
        self.property = property
    }

    /// The site of the accessor `property` of type `T` taking an argument of type `P`, declared in the namespace
    /// whose marker type is `Marker`.
    @inlinable
    init<Marker, P, T>(_: T.Type, arguments _: P.Type, marker _: Marker.Type, property: String) {
        self.identity = ParameterAccessorIdentity<Marker, P, T>.self
        self.property = property
    }

    /// The accessor's key: its type, its argument type (none but for a ``ParameterFactory``), and the tag
    /// `"<Marker>.<property>"`, where `<Marker>` is the marker type's name without its module.
    @usableFromInline var key: DefinitionKey {
        guard let identity = identity as? any AccessorIdentifying.Type else {
            // Not reached: every site is made by `init(_:marker:property:)` or `init(_:arguments:marker:property:)`.
            return DefinitionKey(type: identity, typeOfArguments: Void.self, tag: .string(property))
        }
        return DefinitionKey(
            type: identity.instanceType, typeOfArguments: identity.argumentsType,
            tag: .string(String(describing: identity.markerType) + "." + property))
    }
}

/// What `AccessorIdentity` tells about an accessor: the type of its instances, of its runtime argument (`Void` for
/// none) and its namespace's marker type.
@usableFromInline
protocol AccessorIdentifying {
    static var instanceType: Any.Type { get }
    static var argumentsType: Any.Type { get }
    static var markerType: Any.Type { get }
}

/// A type that stands for the pair (marker, instance type) of a typed accessor in one metatype (`AccessorSite`).
@usableFromInline
enum AccessorIdentity<Marker, T>: AccessorIdentifying {
    @usableFromInline static var instanceType: Any.Type { T.self }
    @usableFromInline static var argumentsType: Any.Type { Void.self }
    @usableFromInline static var markerType: Any.Type { Marker.self }
}

/// `AccessorIdentity` for a ``ParameterFactory``: its argument type is part of its key.
@usableFromInline
enum ParameterAccessorIdentity<Marker, P, T>: AccessorIdentifying {
    @usableFromInline static var instanceType: Any.Type { T.self }
    @usableFromInline static var argumentsType: Any.Type { P.self }
    @usableFromInline static var markerType: Any.Type { Marker.self }
}
