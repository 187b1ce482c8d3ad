/// How long an instance made by a definition lives, and who gets the same instance.
///
/// ```swift
/// container.register(.unique) { Formatter() }
/// container.register(.singleton) { Clock() }
/// let a: Formatter = try container.resolve()
/// let b: Formatter = try container.resolve()   // a !== b
/// let c: Clock = try container.resolve()
/// let d: Clock = try container.resolve()       // c === d
/// ```
///
/// Instances are cached per definition, never per requested key: resolving a singleton as `T`, `T?`, with any
/// tag that falls back to it, or as any type it ``Definition/implements(_:tag:)`` gives the same instance.
public enum ComponentScope: CaseIterable, Sendable, CustomStringConvertible {
    /// Every resolve calls the factory; nothing is cached.
    ///
    /// ```swift
    /// container.register(.unique) { Cell() }
    /// try container.resolve() as Cell !== try container.resolve() as Cell
    /// ```
    case unique

    /// The default: one instance per definition within one resolution graph — the outermost `resolve` call and
    /// everything it resolves, in any container — released when that outermost call returns or throws.
    ///
    /// Two separate `resolve` calls get two instances; two objects built in the same graph share one. This is
    /// what closes circular graphs such as a presenter and its view pointing at each other.
    case shared

    /// One instance per definition, owned by the container that holds the definition, kept until that
    /// definition is overridden or removed or the container is reset.
    case singleton

    /// A ``singleton`` that ``DependencyContainer/bootstrap()-y393`` creates up front, in registration order.
    case eagerSingleton

    /// A ``singleton`` that is kept only while something outside the container holds it.
    ///
    /// The instance is held strongly until the outermost `resolve` returns, then weakly; once the last outside
    /// reference goes, the next resolve creates a new instance. Value types cannot be held weakly, so a
    /// weak singleton of a value type is made anew by every resolution graph.
    case weakSingleton

    /// A ``singleton`` that ``DependencyContainer/trimCaches()`` releases; the next resolve creates it again.
    ///
    /// On Apple platforms the container trims its caches when the system signals memory pressure. Use it for
    /// instances that are worth reusing but cheap enough to rebuild (formatters, image caches, parsers);
    /// ``singleton`` is never released that way.
    ///
    /// ```swift
    /// container.register(.cached) { Formatter() }
    /// let a: Formatter = try container.resolve()
    /// container.trimCaches()
    /// let b: Formatter = try container.resolve()   // a !== b
    /// ```
    ///
    /// Adding this case broke exhaustive `switch` statements over `ComponentScope` (see the migration guide).
    case cached

    /// The scope name as written in Swift (`"singleton"`).
    public var description: String {
        switch self {
        case .unique: "unique"
        case .shared: "shared"
        case .singleton: "singleton"
        case .eagerSingleton: "eagerSingleton"
        case .weakSingleton: "weakSingleton"
        case .cached: "cached"
        }
    }

    /// Whether instances outlive the resolution graph that made them.
    var isSingleton: Bool {
        switch self {
        case .singleton, .eagerSingleton, .weakSingleton, .cached: true
        case .unique, .shared: false
        }
    }
}
