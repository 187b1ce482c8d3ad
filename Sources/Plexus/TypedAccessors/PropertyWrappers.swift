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
/// Threads that read while the first read resolves wait for it. A factory that reads the same property again
/// while it resolves it is a cycle, and stops the process.
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

    /// The instance, resolved on first read.
    public var wrappedValue: T { box.value }
}

extension LazyInject: Sendable where T: Sendable {}

/// The state of a ``LazyInject``: the resolver until the first read, then the instance.
///
/// `@unchecked Sendable` is sound: `state` is only read or written under its own lock, `gate` serialises the first
/// resolution so that `resolve` (a `@Sendable` closure) runs once, and the instance is only handed out as a copy
/// read under the lock; a `LazyInject` is only `Sendable` when `T` is.
private final class LazyBox<T>: @unchecked Sendable {
    private struct State {
        var value: T?
        /// The thread running the first read's resolve: a read on that thread meanwhile is a cycle (waiting for
        /// the gate would block it forever, the lock not being recursive).
        var resolver: pthread_t?
    }

    private let state = Protected(State())
    // Not `Protected(())`: a zero-sized value would share its address with the lock, and ThreadSanitizer reports
    // the exclusivity check of that empty value as a race with the lock itself.
    private let gate = Protected(false)
    private let name: @Sendable () -> String
    private let resolve: @Sendable () -> T

    init(name: @escaping @Sendable () -> String, resolve: @escaping @Sendable () -> T) {
        self.name = name
        self.resolve = resolve
    }

    var value: T {
        let (value, isCycle) = state.withLock { state -> (T?, Bool) in
            guard let resolver = state.resolver else { return (state.value, false) }
            return (state.value, pthread_equal(resolver, pthread_self()) != 0)
        }
        if let value { return value }
        if isCycle {
            fatalError(
                "Plexus: circular dependency: the @LazyInject property of \(name()) was read while its first read was "
                    + "resolving it on this thread. Break the cycle (inject one side later, or resolve it outside the factory)."
            )
        }
        // Held while the accessor resolves (user code): every other first reader waits here for the one instance.
        return gate.withLock { _ in
            if let value = state.withLock({ $0.value }) { return value }
            state.withLock { $0.resolver = pthread_self() }
            defer { state.withLock { $0.resolver = nil } }
            let value = resolve()
            state.withLock { $0.value = value }
            return value
        }
    }
}
