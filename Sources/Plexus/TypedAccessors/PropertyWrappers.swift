internal import PlexusCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resolves a typed accessor when the enclosing instance is made.
///
/// ```swift
/// final class CheckoutViewModel {
///     @Inject(\.analytics) var analytics: AnalyticsService
///     @Inject(\.mappers.priceMapper, container: checkout) var mapper: PriceMapper
/// }
/// ```
///
/// The value is non-optional: an accessor always has a factory. Like calling the accessor, a cycle or an error
/// thrown by a dependency stops the process with a message naming it.
///
/// Without `container:` it reads ``DependencyContainer/shared``, whichever container made the instance: validating a
/// module's container that makes it reports the read as ``GraphReport/Finding/Kind/sharedContainer``.
@propertyWrapper
public struct Inject<T> {
    /// The instance, resolved at initialization.
    public let wrappedValue: T

    /// Resolves the accessor at `accessor` from `container`.
    /// - Parameters:
    ///   - accessor: The key path of the accessor, from a container (`\.analytics`, `\.mappers.priceMapper`).
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    public init<A: TypedAccessor>(
        _ accessor: KeyPath<DependencyContainer, A>, container: DependencyContainer = .shared
    ) where A.Instance == T {
        wrappedValue = container[keyPath: accessor]()
    }

    /// Resolves the main-actor accessor at `accessor` from `container`, on the main actor (a `@MainActor` type's
    /// stored property, for example a view model's).
    /// - Parameters:
    ///   - accessor: The key path of a ``MainActorFactory``.
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    @MainActor
    public init(_ accessor: KeyPath<DependencyContainer, MainActorFactory<T>>, container: DependencyContainer = .shared)
    {
        wrappedValue = container[keyPath: accessor]()
    }
}

extension Inject: Sendable where T: Sendable {}

/// Resolves a typed accessor on first read, once, even when several threads read it first at the same time.
///
/// ```swift
/// final class ProductListView {
///     @LazyInject(\.mappers.priceMapper) var mapper: PriceMapper
/// }
/// ```
///
/// No lock is held while the accessor runs. Threads that read while the first read resolves wait for it, unless they
/// are inside a factory or hook themselves: those resolve the accessor too (so that two lazy properties read from
/// each other's factories on two threads cannot wait for each other), and every reader gets the first instance
/// published. A factory that reads the same property again while it resolves it is a cycle, and stops the process.
///
/// The property keeps its container alive until its first read, so that the read always finds it, and then lets it
/// go. One exception breaks a retain cycle: a property of an instance that its container keeps itself (made by that
/// container's `.singleton`, `.eagerSingleton` or `.cached` factory) holds the container weakly, since the
/// container outlives the instance it keeps. Reading it first after the container was freed (the instance kept
/// alive elsewhere) stops the process with a message saying so.
@propertyWrapper
public struct LazyInject<T> {
    private let box: LazyBox<T>

    /// Prepares to resolve the accessor at `accessor` from `container` on first read.
    /// - Parameters:
    ///   - accessor: The key path of the accessor, from a container.
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    public init<A: TypedAccessor>(
        _ accessor: KeyPath<DependencyContainer, A>, container: DependencyContainer = .shared
    ) where A.Instance == T {
        box = LazyBox(WrapperSource(accessor, container: container))
    }

    /// Prepares to resolve the main-actor accessor at `accessor` from `container` on first read, which must be on
    /// the main actor (a read elsewhere stops the process, naming the main actor).
    /// - Parameters:
    ///   - accessor: The key path of a ``MainActorFactory``.
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    public init(_ accessor: KeyPath<DependencyContainer, MainActorFactory<T>>, container: DependencyContainer = .shared)
    where T: Sendable {
        box = LazyBox(WrapperSource(onMainActor: accessor, container: container))
    }

    /// The instance, resolved on first read.
    public var wrappedValue: T { box.value }
}

extension LazyInject: Sendable where T: Sendable {}

/// What a lazy property wrapper resolves: an accessor's key path and its container, held strongly unless the
/// instance that holds the wrapper is one its container keeps itself (see ``LazyInject``), where a strong reference
/// would be a retain cycle. The accessor is looked up again on each resolve rather than kept: its factory may
/// capture the container too.
struct WrapperSource<T>: Sendable {
    private let strong: DependencyContainer?
    private weak var weak: DependencyContainer?
    private let resolve: @Sendable (DependencyContainer) -> T
    private let describe: @Sendable (DependencyContainer) -> String

    init<A: TypedAccessor>(_ accessor: KeyPath<DependencyContainer, A>, container: DependencyContainer)
    where A.Instance == T {
        // `nonisolated(unsafe)`: a key path is immutable once made, and an accessor's names properties (`\.analytics`,
        // `\.mappers.priceMapper`), so reading it from the thread that reads the property first is safe; only a
        // subscript component with an index of a non-`Sendable` class could hold shared mutable state.
        nonisolated(unsafe) let accessor = accessor
        self.init(
            container: container, resolve: { $0[keyPath: accessor]() },
            describe: { $0[keyPath: accessor].key.map { "\($0)" } ?? "an unbound accessor" })
    }

    /// The source of a lazy property over a ``MainActorFactory``, whose first read must be on the main actor (a read
    /// elsewhere stops the process, naming the main actor).
    init(onMainActor accessor: KeyPath<DependencyContainer, MainActorFactory<T>>, container: DependencyContainer)
    where T: Sendable {
        // `nonisolated(unsafe)`: as for the other sources' key paths, above.
        nonisolated(unsafe) let accessor = accessor
        self.init(
            container: container,
            resolve: { container in MainActor.assumeIsolated { container[keyPath: accessor]() } },
            describe: { $0[keyPath: accessor].key.map { "\($0)" } ?? "an unbound accessor" })
    }

    /// Holds `container` weakly when the running factory makes an instance that `container` keeps (the wrapper then
    /// lives in it), else strongly. `describe` names the accessor's key, for messages only: building it takes the
    /// container's lock.
    private init(
        container: DependencyContainer, resolve: @escaping @Sendable (DependencyContainer) -> T,
        describe: @escaping @Sendable (DependencyContainer) -> String
    ) {
        let isKept = ResolutionGraph.active?.innermostFactoryMakesAnInstanceKept(by: container) ?? false
        (strong, weak) = (isKept ? nil : container, container)
        self.resolve = resolve
        self.describe = describe
    }

    /// The container, or `nil` once a container held weakly is freed.
    var container: DependencyContainer? { strong ?? weak }

    /// Resolves the accessor; stops the process, naming `wrapper`, if the container is gone.
    func callAsFunction(for wrapper: String) -> T {
        guard let container else {
            fatalError(
                "Plexus: the container of a \(wrapper) property was freed before the property resolved its accessor. "
                    + "The instance holding it was kept by that container, which the property therefore holds weakly; "
                    + "keep the container alive as long as the instance, or read the property before letting it go.")
        }
        return resolve(container)
    }

    /// The accessor's key, for messages.
    var name: String { container.map(describe) ?? "an accessor whose container is gone" }
}

/// The state of a ``LazyInject``: the source until the first read, then the instance.
///
/// No lock is held while the accessor runs: a first read resolves outside the lock and publishes its instance.
/// A reader that finds a first read in flight on another thread waits for it (so the accessor runs once) only when
/// it is not resolving anything itself: a thread inside a factory or hook may hold a construction that the
/// resolving thread waits for, so it resolves the accessor too, and the first instance published wins. Either way
/// every reader gets the same instance, and no thread waits for one that waits for it. Publishing drops the
/// source, and with it the container.
///
/// `@unchecked Sendable` is sound: `state` is only read or written under its own lock, and the instance is only
/// handed out as a copy read under the lock; a `LazyInject` is only `Sendable` when `T` is.
private final class LazyBox<T>: @unchecked Sendable {
    private struct State {
        var value: T?
        /// What to resolve, until the first instance is published.
        var source: WrapperSource<T>?
        /// The threads running a first read's resolve: a read on one of them meanwhile is a cycle.
        var resolvers: [pthread_t] = []
        /// Opened when the first instance is published; waited on by readers that are not resolving anything.
        var published: ConstructionSignal?
    }

    private enum Step {
        case done(T)
        case cycle(WrapperSource<T>?)
        case wait(ConstructionSignal)
        case resolve(WrapperSource<T>)
    }

    private let state: Protected<State>

    init(_ source: WrapperSource<T>) {
        state = Protected(State(source: source))
    }

    var value: T {
        let me = pthread_self()
        let mayWait = ResolutionGraph.active == nil
        while true {
            let step = state.withLock { state -> Step in
                if let value = state.value { return .done(value) }
                if state.resolvers.contains(where: { pthread_equal($0, me) != 0 }) { return .cycle(state.source) }
                if mayWait, let signal = state.published, !state.resolvers.isEmpty { return .wait(signal) }
                guard let source = state.source else { return .cycle(nil) }  // `source` goes only with a value
                state.resolvers.append(me)
                if state.published == nil { state.published = ConstructionSignal() }
                return .resolve(source)
            }
            switch step {
            case .done(let value):
                return value
            case .cycle(let source):
                fatalError(
                    "Plexus: circular dependency: the @LazyInject property of \(source?.name ?? "an accessor") was read "
                        + "while its first read was resolving it on this thread. Break the cycle (inject one side "
                        + "later, or resolve it outside the factory).")
            case .wait(let signal):
                _ = signal.wait(as: GraphID(graph: ObjectIdentifier(self), session: 0))
            case .resolve(let source):
                let resolved = source(for: "@LazyInject")
                let (value, signal, dropped) = state.withLock {
                    state -> (T, ConstructionSignal?, WrapperSource<T>?) in
                    state.resolvers.removeAll { pthread_equal($0, me) != 0 }
                    if let first = state.value { return (first, nil, nil) }
                    state.value = resolved
                    defer { state.source = nil }
                    return (resolved, state.published, state.source)
                }
                signal?.open()
                // The container, if this held its last reference, is released here, after the lock.
                withExtendedLifetime(dropped) {}
                return value
            }
        }
    }
}
