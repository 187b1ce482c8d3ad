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
public protocol Resolvable: AnyObject {
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
