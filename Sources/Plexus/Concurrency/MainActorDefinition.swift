/// A definition registered with a `@MainActor` factory: its property hooks are main-actor code too, so
/// a UIKit or SwiftUI screen's presenter and view wire up in Swift 6 mode without `MainActor.assumeIsolated`.
///
/// ```swift
/// container.register { @MainActor c in Presenter(api: try c.resolve()) }
///     .resolvingProperties { @MainActor container, presenter in presenter.view = try container.resolve() }
///     .implements(PresenterInput.self)
/// ```
///
/// Swift does not overload on a closure's global actor alone, so main-actor registration returns this type of its
/// own; ``definition`` is the plain ``Definition`` underneath, for `register(_:tag:)` in another container or
/// `remove`.
public struct MainActorDefinition<T, U>: Sendable {
    /// The definition underneath: the same registration, for the APIs that take a ``Definition``.
    public let definition: Definition<T, U>

    init(_ definition: Definition<T, U>) {
        self.definition = definition
    }

    /// How long instances live.
    public var scope: ComponentScope { definition.scope }

    /// Adds a `@MainActor` hook that sets properties of each new instance, for example the back-reference of a
    /// cycle. It runs as ``Definition/resolvingProperties(_:)`` hooks do, on the main actor: a synchronous resolve
    /// off the main actor that would run it throws ``ResolutionError/requiresMainActor(key:)``; an async resolve runs
    /// its graph's hooks on the main actor.
    /// - Parameter block: Sets the properties; errors it throws propagate out of the outermost `resolve`.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func resolvingProperties(
        _ block: @escaping @MainActor @Sendable (DependencyContainer, T) throws -> Void
    ) -> MainActorDefinition {
        definition.update { $0.hooksNeedMainActor = true }
        definition.addHook { container, instance in
            guard let typed = instance as? T else { return }
            guard isMainThread else {
                throw ResolutionError.requiresMainActor(
                    key: DefinitionKey(type: T.self, typeOfArguments: U.self, tag: nil))
            }
            // Checked above: this is the main thread, and the instance stays on it.
            nonisolated(unsafe) let onMain = typed
            try MainActor.assumeIsolated { try block(container, onMain) }
        }
        return self
    }

    /// Makes the definition resolvable as `type` too, as ``Definition/implements(_:tag:)`` does.
    /// - Parameters:
    ///   - type: Another type to resolve this definition as, usually a protocol its instances conform to.
    ///   - tag: The tag of the forwarding registration, or `nil`.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func implements<F>(_ type: F.Type, tag: DependencyTagConvertible? = nil) -> MainActorDefinition {
        definition.implements(type, tag: tag)
        return self
    }

    /// Makes the definition resolvable as each of the given types, untagged, as
    /// ``Definition/implements(_:_:_:)`` does.
    /// - Parameters:
    ///   - first: A type to resolve this definition as.
    ///   - second: Another type.
    ///   - more: Any number of further types.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func implements<F1, F2, each F>(
        _ first: F1.Type, _ second: F2.Type, _ more: repeat (each F).Type
    ) -> MainActorDefinition {
        definition.implements(first, second, repeat each more)
        return self
    }
}
