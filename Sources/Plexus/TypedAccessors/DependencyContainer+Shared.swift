internal import PlexusCore

extension DependencyContainer {
    /// The process-wide container (the `Container.shared` of SDK- and Factory-style code).
    ///
    /// ```swift
    /// let analytics = DependencyContainer.shared.analytics()
    /// DependencyContainer.shared.mappers.priceMapper.replace { CustomMapper() }
    /// ```
    ///
    /// It is an ordinary container: register, collaborate, reset and validate it like any other. Tests that run
    /// in parallel should not change it: ``withShared(_:_:)`` replaces it for one task and the
    /// child tasks it starts, so each test sees a container of its own.
    public static var shared: DependencyContainer {
        // The task-local lookup only once a task may have replaced it: until then it always finds nothing.
        guard SharedReplacement.mayBeActive else { return processWide }
        return SharedOverride.container ?? processWide
    }

    private static let processWide = DependencyContainer(name: "shared")

    /// A companion container whose typed accessors give their declared defaults, ignoring every override,
    /// decorator and collaborator of this container.
    ///
    /// ```swift
    /// container.mappers.priceMapper = .single { CustomMapper() }
    /// container.mappers.priceMapper()            // a CustomMapper
    /// container.defaults.mappers.priceMapper()   // the declared DefaultPriceMapper
    /// ```
    ///
    /// The companion is made on first use and kept by this container. It registers each declared default it is
    /// asked for and keeps its own instances (a default singleton there is not the one this container uses when
    /// nothing overrides it); ``reset()`` and ``trimCaches()`` of this container reach them too. What a declared
    /// default's factory resolves by type (`try container.resolve()`: a value registered with `inject` when the
    /// container was made, Saber's externals) comes from this container, through which the companion resolves every
    /// key that is not an accessor's. Overrides made through it have no effect; its `defaults` is itself.
    public var defaults: DependencyContainer {
        if isDefaultsOnly { return self }
        return defaultsCompanion.withLock { companion in
            if let companion { return companion }
            let made = DependencyContainer(defaultsOf: self)
            // Held weakly: this container keeps the companion.
            made.collaborate(with: self)
            companion = made
            return made
        }
    }
}

/// A type whose code reaches ``DependencyContainer/shared`` as `container`, statically (also in default
/// arguments) and per instance.
///
/// ```swift
/// final class ProductCell: UIView, HasSharedContainer {
///     lazy var priceMapper = container.mappers.priceMapper()
///     init(badge: BadgeView = container.views.badge()) { … }
/// }
/// ```
public protocol HasSharedContainer {}

extension HasSharedContainer {
    /// The shared container, ``DependencyContainer/shared``.
    public static var container: DependencyContainer { DependencyContainer.shared }

    /// The shared container, ``DependencyContainer/shared``.
    public var container: DependencyContainer { DependencyContainer.shared }
}
