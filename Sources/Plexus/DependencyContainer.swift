internal import PlexusCore

/// A dependency-injection container: holds definitions, caches their instances by scope, and resolves object
/// graphs, also through the containers it collaborates with.
///
/// ```swift
/// let container = DependencyContainer()
/// container.register(.singleton) { NetworkClient() as Api }
/// container.register { c in ListPresenter(api: try c.resolve()) }
/// let presenter: ListPresenter = try container.resolve()
/// ```
///
/// A container is `Sendable` and thread-safe: any number of threads and tasks may register, resolve and
/// collaborate at once. No lock is held while a factory or hook runs, so factories may resolve from any
/// container, and caching scopes construct each instance exactly once even under contention.
///
/// Factories that capture their container strongly (`container.register { X(try container.resolve()) }`) keep
/// it alive for as long as the definition is registered, as in Dip. Take it as the factory's parameter instead
/// (`container.register { c in X(try c.resolve()) }`), as hooks do, or capture it `[unowned container]`.
public final class DependencyContainer: Sendable {
    /// The definitions and their indexes, reached only by the engine (`Engine/Registry+Facade.swift` for the rest).
    let registry: Protected<Registry>
    /// How the definitions registered here reach `registry` (`Registrations`).
    let registryLink: RegistryLink
    /// The registry's answer generation (`Epoch`), kept here for the life of the container.
    let epoch: Epoch
    /// `epoch`'s value, as the resolve path reads it: without the lock, retaining nothing.
    let generation: Epoch.Reader
    /// Slots that changes dropped from the registry while their factory ran on some thread without holding them
    /// (`release(_:)`).
    let retired = Protected<[Slot]>([])

    /// Whether instances get their `@Injected` / `@InjectedWeak` properties filled unless a definition says
    /// otherwise (``Definition/autoInjectingProperties(_:)``).
    public let autoInjectProperties: Bool

    /// Whether instances that conform to ``Resolvable`` get ``Resolvable/resolveDependencies(_:)`` and
    /// ``Resolvable/didResolveDependencies()`` called.
    public let callsResolvable: Bool

    /// The container's name, for messages and reports: the one given to ``init(name:autoInjectProperties:callsResolvable:threadSafe:configBlock:)``,
    /// or the file that created the container (`"Checkout/CheckoutModule.swift"`).
    public let name: String

    /// Whether this is the ``defaults`` companion of another container, whose typed accessors answer with their
    /// declared defaults only.
    let isDefaultsOnly: Bool
    /// The ``defaults`` companion, made on first use.
    let defaultsCompanion = Protected<DependencyContainer?>(nil)
    /// What each definition of a singleton typed accessor taking a runtime argument keeps per argument value, by key,
    /// held weakly (the definitions hold them): found here to be dropped.
    let parameterKeepers = Protected(ParameterKeepers())

    /// Creates a container.
    ///
    /// ```swift
    /// let checkout = DependencyContainer(name: "Checkout") { container in
    ///     container.inject(environment)          // an external the module needs
    /// }
    /// ```
    /// - Parameters:
    ///   - name: The name used in messages and reports; by default the file that creates the container.
    ///   - autoInjectProperties: Whether to fill `@Injected` / `@InjectedWeak` properties (default `true`).
    ///   - callsResolvable: Whether to call the ``Resolvable`` methods of instances that conform (default `true`).
    ///     With this and `autoInjectProperties` off, Plexus never asks the Swift runtime whether a new instance's
    ///     type conforms to a protocol: the first such check of each type an app resolves walks every protocol
    ///     conformance the process has loaded, which is most of what a container costs at launch.
    ///   - threadSafe: Accepted and ignored, so that Dip's code compiles: a container is always thread-safe,
    ///     whatever you pass.
    ///   - configBlock: Runs at the end of `init` with the new container, typically to register definitions.
    public init(
        name: String = #fileID,
        autoInjectProperties: Bool = true,
        callsResolvable: Bool = true,
        threadSafe: Bool = true,
        configBlock: (DependencyContainer) -> Void = { _ in }
    ) {
        self.name = name
        self.autoInjectProperties = autoInjectProperties
        self.callsResolvable = callsResolvable
        self.isDefaultsOnly = false
        (epoch, registry) = Self.makeRegistry()
        registryLink = RegistryLink(registry)
        generation = epoch.reader
        configBlock(self)
    }

    /// Makes the ``defaults`` companion of `container`.
    init(defaultsOf container: DependencyContainer) {
        self.name = container.name + ".defaults"
        self.autoInjectProperties = container.autoInjectProperties
        self.callsResolvable = container.callsResolvable
        self.isDefaultsOnly = true
        (epoch, registry) = Self.makeRegistry()
        registryLink = RegistryLink(registry)
        generation = epoch.reader
    }

    /// A new registry and its answer generation.
    private static func makeRegistry() -> (Epoch, Protected<Registry>) {
        let epoch = Epoch()
        return (epoch, Protected(Registry(epoch: epoch), readerBiased: true))
    }

    /// Whether a tagged request that finds no definition for its tag here is answered by the type's untagged
    /// definition, as in Dip; `true` by default. Safe to set from any thread.
    ///
    /// A fallback is logged at ``LogLevel/errors``, since a mistyped tag looks like one. Set this to `false` to make it
    /// an error instead: the request goes on to the collaborators and, if none has a definition for the tag, throws
    /// ``ResolutionError/definitionNotFound(key:)`` naming the untagged definition as a near miss.
    ///
    /// ```swift
    /// container.register { HTTPApi() as Api }
    /// _ = try container.resolve(tag: "staging") as Api     // the untagged HTTPApi, and a log line
    ///
    /// container.fallsBackToUntaggedDefinitions = false
    /// _ = try container.resolve(tag: "staging") as Api     // throws definitionNotFound
    /// _ = try container.resolve() as Api                    // the untagged HTTPApi
    /// ```
    ///
    /// The setting is this container's: it decides whether its own untagged definitions answer tagged requests, also
    /// when another container reaches them through ``collaborate(with:)-(DependencyContainer...)``. It is about the
    /// tags callers write: a tag passed down from the instance being made (to its auto-wired arguments, its
    /// `@Injected` properties, or a resolve in its factory with the same tag) still reaches untagged dependencies.
    public var fallsBackToUntaggedDefinitions: Bool {
        get { fallsBackToUntagged }
        set { fallsBackToUntagged = newValue }
    }

    deinit {
        // Lookups that went through this container may now go elsewhere.
        epoch.advance()
        forgetRetired()
    }

    /// Forgets every definition, cached instance and the bootstrap state; keeps the collaborators.
    ///
    /// Singletons this container owns are released everywhere: collaborators never keep their own copy. The
    /// ``defaults`` companion forgets its declared defaults and their instances too.
    public func reset() {
        removeAll()
        dropParameterInstances()
        if !isDefaultsOnly, let companion = defaultsCompanion.withLock({ $0 }) { companion.reset() }
    }

}
