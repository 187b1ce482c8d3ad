extension DependencyContainer {
    /// The resolution in progress: what is being resolved, with which tag, and for whom.
    ///
    /// ```swift
    /// container.register { () -> Logger in
    ///     Logger(category: "\(container.context.injectedInType.map { "\($0)" } ?? "app")")
    /// }
    /// ```
    public struct Context: Sendable, CustomStringConvertible {
        /// The key that was requested.
        public let key: DefinitionKey
        /// The type being resolved.
        public var resolvingType: Any.Type { key.type }
        /// The requested tag, or `nil`.
        public var tag: Tag? { key.tag }
        /// The type whose factory or hook asked for this instance; `nil` for the outermost resolve.
        public let injectedInType: Any.Type?
        /// The property being auto-injected, when the instance is resolved for `@Injected`/`@InjectedWeak`.
        public let injectedInProperty: String?

        /// A readable summary of the context.
        public var description: String {
            var text = "resolving \(key)"
            if let injectedInType { text += " for \(typeName(injectedInType))" }
            if let injectedInProperty { text += ".\(injectedInProperty)" }
            return text
        }
    }

    /// The resolution in progress on the calling thread, inside a factory or a property hook; `nil` outside a
    /// resolution.
    ///
    /// The context is per thread: factories running at the same time on several threads each see their own.
    /// It is the same whichever container you read it from, since one resolution graph may span containers.
    public var context: Context! {
        ResolutionGraph.active?.context
    }
}
