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
        box = LazyBox { resolve() }
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
    private let state = Protected<T?>(nil)
    private let gate = Protected(())
    private let resolve: @Sendable () -> T

    init(_ resolve: @escaping @Sendable () -> T) {
        self.resolve = resolve
    }

    var value: T {
        if let value = state.withLock({ $0 }) { return value }
        // Held while the accessor resolves (user code): every other first reader waits here for the one instance.
        return gate.withLock { _ in
            if let value = state.withLock({ $0 }) { return value }
            let value = resolve()
            state.withLock { $0 = value }
            return value
        }
    }
}
