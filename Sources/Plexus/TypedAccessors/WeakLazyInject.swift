/// Resolves a typed accessor on first read and holds the instance weakly: a read after the instance was released
/// elsewhere resolves it again.
///
/// ```swift
/// final class ProfileScreen {
///     @WeakLazyInject(\.session) var session: Session       // var session: Factory<Session> { self { … }.weakSingleton }
/// }
/// ```
///
/// Use it for an instance something else owns (a `.weakSingleton` accessor, a session that ends): the property
/// never keeps it alive. It holds class instances; a value type cannot be held weakly, so each read resolves it
/// again. No lock is held while the accessor resolves, so a read on another thread at the same time may resolve it
/// too: with a `.weakSingleton` or `.singleton` accessor both get the same instance. Like calling the accessor, a
/// cycle or an error thrown by a dependency stops the process with a message naming it.
///
/// The property keeps its container alive, since every read may resolve again, except in an instance that its
/// container keeps itself (made by that container's `.singleton`, `.eagerSingleton` or `.cached` factory): there it
/// holds the container weakly, which breaks the retain cycle, and a read that needs to resolve after the container
/// was freed (the instance kept alive elsewhere) stops the process with a message saying so.
@propertyWrapper
public struct WeakLazyInject<T> {
    private let box: WeakBox<T>

    /// Prepares to resolve the accessor at `accessor` from `container` on first read.
    /// - Parameters:
    ///   - accessor: The key path of the accessor, from a container (`\.session`, `\.sessions.current`).
    ///   - container: The container to resolve from; ``DependencyContainer/shared`` by default.
    public init<A: TypedAccessor>(
        _ accessor: KeyPath<DependencyContainer, A>, container: DependencyContainer = .shared
    ) where A.Instance == T {
        box = WeakBox(WrapperSource(accessor, container: container))
    }

    /// The instance: the one held if it is still alive, else a newly resolved one.
    public var wrappedValue: T { box.value }
}

extension WeakLazyInject: Sendable where T: Sendable {}

/// The state of a ``WeakLazyInject``: what to resolve, and the instance, held weakly.
private final class WeakBox<T>: Sendable {
    private struct Held {
        weak var object: AnyObject?
    }

    private let held = Protected(Held())
    private let source: WrapperSource<T>

    init(_ source: WrapperSource<T>) {
        self.source = source
    }

    var value: T {
        if let object = held.withLock({ $0.object }), let instance = object as? T { return instance }
        // Resolved without the lock: the accessor runs user code, which may read this property again.
        let instance = source(for: "@WeakLazyInject")
        return held.withLock { held in
            // Another thread may have resolved meanwhile: keep one instance while both are alive.
            if let object = held.object, let kept = object as? T { return kept }
            held.object = instance as AnyObject
            return instance
        }
    }
}
