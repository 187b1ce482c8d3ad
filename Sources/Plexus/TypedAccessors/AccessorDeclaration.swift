/// What every kind of typed accessor shares (``Factory``, ``SingletonFactory``, ``ParameterFactory``,
/// ``AsyncFactory``, ``MainActorFactory``): a key in a container, and a declared default factory.
///
/// The members every kind has are written once, here: the context modifiers (``context(_:_:caller:)``, ``onTest(_:caller:)``,
/// ``onPreview(_:caller:)``, ``onDebug(_:caller:)``, ``onArg(_:_:caller:)``) and ``reset(_:)``.
///
/// ```swift
/// extension DependencyContainer {
///     var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.onTest { SilentAnalytics() } }
///     var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) }.onPreview { id in Detail(sampleID: id) } }
///     var database: AsyncFactory<Database> { self { try await Database.open() }.singleton.onTest { Database.inMemory() } }
/// }
/// container.analytics.reset()
/// ```
///
/// You rarely use the protocol directly; the accessor types adopt it.
public protocol AccessorDeclaration: Sendable {
    /// The type of the instances.
    associatedtype Instance

    /// The type of the accessor's factory: `@Sendable () throws -> Instance` for ``Factory``, the same taking the
    /// argument for ``ParameterFactory``, `async` for ``AsyncFactory``, `@MainActor` for ``MainActorFactory``.
    associatedtype Make

    /// The container the accessor is bound to, or `nil` for an unbound value such as `.factory { … }` before it is
    /// assigned to an accessor.
    var container: DependencyContainer? { get }

    /// The key the accessor resolves, or `nil` when unbound.
    var key: DefinitionKey? { get }

    /// The same accessor, with the same storage and property hooks, whose declared default is `make`: what a context
    /// modifier returns when its context holds.
    /// - Parameter make: The declared default factory to use instead.
    /// - Returns: The accessor.
    func replacingDefault(_ make: Make) -> Self

    /// Overrides the accessor in its container with `make` when `caller` is not the property that declares it: a
    /// context modifier written at a call site (`container.analytics.onTest { MockAnalytics() }` in a test) takes
    /// effect, as Factory's does, while the same modifier in the declaration only changes the declared default.
    /// - Parameters:
    ///   - make: The context's factory.
    ///   - caller: The `#function` of the code that wrote the modifier.
    func overrideFromCallSite(_ make: Make, caller: String)
}

extension AccessorDeclaration {
    /// Forgets the accessor's override and the instances kept for it in its container, or only what `options` says;
    /// decorators stay.
    ///
    /// ```swift
    /// container.analytics.reset()          // the override and the kept instance
    /// container.analytics.reset(.scope)    // only the kept instance
    /// ```
    /// - Parameter options: What to forget; ``AccessorReset/all`` by default.
    public func reset(_ options: AccessorReset = .all) {
        if let key { container?.resetAccessor(key, options) }
    }
}
