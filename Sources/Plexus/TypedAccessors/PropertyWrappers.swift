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
        let resolve = container[keyPath: accessor]
        // The key is only named if a cycle is found: building it takes the container's lock.
        box = LazyBox(name: { resolve.key.map { "\($0)" } ?? "an unbound accessor" }, resolve: { resolve() })
    }

    /// Prepares to resolve the main-actor accessor at `accessor` from `container` on first read, which must be on
    /// the main actor (a read elsewhere stops the process, naming the main actor).
    /// - Parameters:
    ///   - accessor: The key path of a ``MainActorFactory``.
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    public init(_ accessor: KeyPath<DependencyContainer, MainActorFactory<T>>, container: DependencyContainer = .shared)
    where T: Sendable {
        let resolve = container[keyPath: accessor]
        box = LazyBox(
            name: { resolve.key.map { "\($0)" } ?? "an unbound accessor" },
            resolve: { MainActor.assumeIsolated { resolve() } })
    }

    /// The instance, resolved on first read.
    public var wrappedValue: T { box.value }
}

extension LazyInject: Sendable where T: Sendable {}

/// The state of a ``LazyInject``: the resolver until the first read, then the instance.
///
/// No lock is held while the accessor runs: a first read resolves outside the lock and publishes its instance.
/// A reader that finds a first read in flight on another thread waits for it (so the accessor runs once) only when
/// it is not resolving anything itself: a thread inside a factory or hook may hold a construction that the
/// resolving thread waits for, so it resolves the accessor too, and the first instance published wins. Either way
/// every reader gets the same instance, and no thread waits for one that waits for it.
///
/// `@unchecked Sendable` is sound: `state` is only read or written under its own lock, and the instance is only
/// handed out as a copy read under the lock; a `LazyInject` is only `Sendable` when `T` is.
private final class LazyBox<T>: @unchecked Sendable {
    private struct State {
        var value: T?
        /// The threads running a first read's resolve: a read on one of them meanwhile is a cycle.
        var resolvers: [pthread_t] = []
        /// Opened when the first instance is published; waited on by readers that are not resolving anything.
        var published: ConstructionSignal?
    }

    private enum Step {
        case done(T)
        case cycle
        case wait(ConstructionSignal)
        case resolve
    }

    private let state = Protected(State())
    private let name: @Sendable () -> String
    private let resolve: @Sendable () -> T

    init(name: @escaping @Sendable () -> String, resolve: @escaping @Sendable () -> T) {
        self.name = name
        self.resolve = resolve
    }

    var value: T {
        let me = pthread_self()
        let mayWait = ResolutionGraph.active == nil
        while true {
            let step = state.withLock { state -> Step in
                if let value = state.value { return .done(value) }
                if state.resolvers.contains(where: { pthread_equal($0, me) != 0 }) { return .cycle }
                if mayWait, let signal = state.published, !state.resolvers.isEmpty { return .wait(signal) }
                state.resolvers.append(me)
                if state.published == nil { state.published = ConstructionSignal() }
                return .resolve
            }
            switch step {
            case .done(let value):
                return value
            case .cycle:
                fatalError(
                    "Plexus: circular dependency: the @LazyInject property of \(name()) was read while its first read "
                        + "was resolving it on this thread. Break the cycle (inject one side later, or resolve it "
                        + "outside the factory).")
            case .wait(let signal):
                _ = signal.wait(as: GraphID(graph: ObjectIdentifier(self), session: 0))
            case .resolve:
                let resolved = resolve()
                let (value, signal) = state.withLock { state -> (T, ConstructionSignal?) in
                    state.resolvers.removeAll { pthread_equal($0, me) != 0 }
                    if let first = state.value { return (first, nil) }
                    state.value = resolved
                    return (resolved, state.published)
                }
                signal?.open()
                return value
            }
        }
    }
}
