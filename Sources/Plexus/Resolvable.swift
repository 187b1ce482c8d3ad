/// A type that completes itself after it has been resolved.
///
/// Plexus calls ``resolveDependencies(_:)`` after the instance's factory has returned and the instance is cached
/// in its scope, together with the other property hooks of the graph, and ``didResolveDependencies()`` once
/// every hook of the graph has run, in reverse creation order, before the outermost `resolve` returns. Both
/// methods have empty defaults, so a conformer implements only what it needs.
///
/// ```swift
/// final class ListPresenter: Resolvable {
///     var view: ListView?
///     func resolveDependencies(_ container: DependencyContainer) {
///         view = try? container.resolve()
///     }
/// }
/// ```
public protocol Resolvable: CompletedAfterResolution, AnyObject {
    /// Resolves property dependencies. Called once per created instance, with the container that owns its
    /// definition.
    func resolveDependencies(_ container: DependencyContainer)

    /// Called once per created instance after every property hook of the resolution graph has run.
    func didResolveDependencies()
}

extension Resolvable {
    /// Does nothing.
    public func resolveDependencies(_ container: DependencyContainer) {}

    /// Does nothing.
    public func didResolveDependencies() {}
}

/// A type whose instances, or the instances that hold it, get work from Plexus after their factory returns:
/// ``Resolvable`` and ``AutoInjectedPropertyBox`` refine it, and you never conform to it directly.
///
/// It lets one question answer both of Dip's: the Swift runtime's first check of whether a type conforms to a protocol
/// walks every conformance the process has loaded, so Plexus asks each new type once whether it conforms to this
/// protocol (as an instance's type, or as the type of a stored property that may be an `@Injected` box), and asks
/// which of the two it is only of the few types that do.
public protocol CompletedAfterResolution {}
