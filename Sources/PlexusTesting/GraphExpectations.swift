public import Plexus
public import Testing

/// Records an issue, with the error's full description, unless every definition of `container` resolves.
///
/// ```swift
/// @Test func theAppGraphIsComplete() {
///     expectValidGraph(AppContainer.make())
/// }
/// ```
///
/// It runs `container.validate(arguments)`: every definition is resolved once, with arguments of the types it
/// takes taken from `arguments`. A ``Plexus/ResolutionError`` (a missing registration, a cycle, a wrong type)
/// fails the test with the message that names the path; errors thrown by factories themselves are domain errors
/// and do not (as with `validate`).
///
/// Definitions that take runtime arguments need sample values: each argument after the container is one argument
/// set, a single value for a definition taking one argument, a tuple for one taking several. A definition no set
/// matches is auto-wired, and fails if its argument types are not registered:
///
/// ```swift
/// container.register { (id: Int) in Detail(id: id) }
/// container.register { (id: Int, title: String) in Cell(id: id, title: title) }
/// expectValidGraph(container, 42, (7, "Inbox"))
/// ```
/// - Parameters:
///   - container: The container whose graph to check.
///   - arguments: Argument sets for definitions that take runtime arguments: a value, or a tuple of the values
///     for a definition that takes several.
///   - sourceLocation: Where the issue is reported; the caller's line by default.
/// - Returns: Whether the graph is valid.
@discardableResult
public func expectValidGraph(
    _ container: DependencyContainer, _ arguments: Any..., sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    do {
        try Plexus.withLogging(level: .none) { try container.validate(arguments: arguments) }
        return true
    } catch {
        Issue.record("The dependency graph is not valid: \(error)", sourceLocation: sourceLocation)
        return false
    }
}

/// Records an issue, with the error's description, unless `container` resolves `type` (untagged, or for `tag`).
///
/// ```swift
/// expectResolves(CheckoutPresenter.self, in: container)
/// ```
/// - Parameters:
///   - type: The type to resolve.
///   - tag: The tag to resolve it for, if any.
///   - container: The container to resolve it from.
///   - sourceLocation: Where the issue is reported; the caller's line by default.
/// - Returns: The resolved instance, or `nil` after recording the issue.
@discardableResult
public func expectResolves<T>(
    _ type: T.Type, tag: (any DependencyTagConvertible)? = nil, in container: DependencyContainer,
    sourceLocation: SourceLocation = #_sourceLocation
) -> T? {
    do {
        return try Plexus.withLogging(level: .none) { try container.resolve(tag: tag) as T }
    } catch {
        Issue.record("Could not resolve \(T.self): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
