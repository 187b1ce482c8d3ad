internal import PlexusCore

/// Resolves a typed accessor on first read and holds the instance weakly: once the instance is released elsewhere,
/// the property reads `nil`.
///
/// ```swift
/// final class ProfileScreen {
///     @WeakLazyInject(\.session) var session: Session?      // var session: Factory<Session> { self { … }.weakSingleton }
/// }
/// ```
///
/// Use it for an instance something else owns (a `.weakSingleton` accessor, a session that ends): the property
/// never keeps it alive, and never makes a new one after it is gone. It holds class instances; a value type cannot
/// be held weakly, so only the read that resolves it sees it. No lock is held while the accessor resolves, so a
/// first read on another thread at the same time may resolve it too: with a `.weakSingleton` or `.singleton`
/// accessor both get the same instance. Like calling the accessor, a cycle or an error thrown by a dependency stops
/// the process with a message naming it.
///
/// Until its first read the property keeps its container alive, and then lets it go, except in an instance that its
/// container keeps itself (made by that container's `.singleton`, `.eagerSingleton` or `.cached` factory): there it holds the
/// container weakly, which breaks the retain cycle, and a first read after the container was freed (the instance
/// kept alive elsewhere) stops the process with a message saying so.
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

    /// The instance, resolved on first read; `nil` once it is released elsewhere.
    public var wrappedValue: T? { box.value }
}

extension WeakLazyInject: Sendable where T: Sendable {}

/// The state of a ``WeakLazyInject``: what to resolve, and the instance, held weakly.
private final class WeakBox<T>: Sendable {
    private struct Held {
        weak var object: AnyObject?
        /// What to resolve, until the first read has resolved it: then `nil`, letting the container go.
        var source: WrapperSource<T>?
    }

    private let held: Protected<Held>

    init(_ source: WrapperSource<T>) {
        held = Protected(Held(source: source))
    }

    var value: T? {
        let (source, object) = held.withLock { ($0.source, $0.object) }
        guard let source else { return object as? T }
        // Resolved without the lock: the accessor runs user code, which may read this property again.
        let instance = source(for: "@WeakLazyInject")
        return held.withLock { held in
            // Another thread may have resolved meanwhile: keep one instance while both are alive.
            if held.source == nil { return held.object as? T }
            held.object = instance as AnyObject
            held.source = nil
            return instance
        }
    }
}
