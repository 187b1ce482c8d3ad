/// Resolves a declaration of ``Container/shared``: `let api = dependency(\.api)`.
/// - Parameter keyPath: The declaration.
/// - Returns: The instance.
public func dependency<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a declaration of a shared container: `dependency(\MyContainer.api)`.
/// - Parameter keyPath: The declaration.
/// - Returns: The instance.
public func dependency<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}

/// Resolves a declaration of ``Container/shared`` that takes an argument.
/// - Parameters:
///   - keyPath: The declaration.
///   - parameter: The argument.
/// - Returns: The instance.
public func dependency<P, T>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>, parameter: P) -> T {
    Container.shared[keyPath: keyPath](parameter)
}

/// Resolves a declaration of a shared container that takes an argument.
/// - Parameters:
///   - keyPath: The declaration.
///   - parameter: The argument.
/// - Returns: The instance.
public func dependency<C: SharedContainer, P, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> T {
    C.shared[keyPath: keyPath](parameter)
}

/// Resolves a declaration of ``Container/shared``; the older spelling of `dependency(_:)`.
/// - Parameter keyPath: The declaration.
/// - Returns: The instance.
@available(*, deprecated, renamed: "dependency")
public func resolve<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a declaration of a shared container; the older spelling of `dependency(_:)`.
/// - Parameter keyPath: The declaration.
/// - Returns: The instance.
@available(*, deprecated, renamed: "dependency")
public func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}
