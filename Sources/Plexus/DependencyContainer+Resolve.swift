extension DependencyContainer {
    /// Resolves an instance of `T`, as the call site's type says.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// let api = try container.resolve(tag: "prod") as Api
    /// let maybe: Service? = try container.resolve()        // T? and T! resolve through T's definition
    /// ```
    ///
    /// Lookup, first match wins: the exact key; the same key untagged; a definition that
    /// ``Definition/implements(_:tag:)`` the type (exact tag, then untagged); auto-wiring from a definition that
    /// takes arguments; the collaborators, depth first in the order given. The key of a typed accessor whose declared
    /// default is registered here resolves as the accessor does (<doc:TypedAccessors>): exact key only, here then in
    /// the collaborators, then that default.
    ///
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: ``ResolutionError`` when nothing matches or the graph has a constructor cycle, and any error a
    ///   factory or hook throws, unchanged. The container stays usable after any error.
    @inlinable
    public func resolve<T>(tag: DependencyTagConvertible?) throws -> T {
        try resolveTyped(tag: tag?.dependencyTag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
    }

    /// Resolves an instance of `T` under a tag of a concrete type — a string or integer literal, an enum of tags —
    /// as the call site's type says: the same lookup as ``resolve(tag:)-67ys9``, chosen by the compiler whenever the
    /// tag's type is known, so the tag is converted without an existential box (an existential argument is opened).
    ///
    /// ```swift
    /// let api = try container.resolve(tag: "prod") as Api
    /// let db: Database = try container.resolve(tag: Environment.staging)
    /// ```
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T, Convertible: DependencyTagConvertible>(tag: Convertible) throws -> T {
        try resolveTyped(tag: tag.dependencyTag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
    }

    /// Resolves an untagged instance of `T`, as the call site's type says: the same as ``resolve(tag:)-67ys9`` with no
    /// tag.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// ```
    ///
    /// In an `async` function Swift picks the async overload instead (write `try await container.resolve()`); in
    /// top-level code (`main.swift`, a script) it picks this one even after `await`: see
    /// <doc:Concurrency#Which-resolve-Swift-picks>.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T>() throws -> T {
        try resolveTyped()
    }

    /// Resolves an instance of `T` from a definition that takes runtime arguments.
    ///
    /// ```swift
    /// container.register { (id: Int, title: String) in Cell(id: id, title: title) }
    /// let cell: Cell = try container.resolve(arguments: 42, "Inbox")
    /// ```
    ///
    /// Arguments match the definition by exact static types, count and order; resolving with arguments never
    /// auto-wires.
    /// - Parameters:
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T, each A>(tag: DependencyTagConvertible? = nil, arguments: repeat each A) throws -> T {
        let tag = tag?.dependencyTag
        return try withArgumentsPointer(to: (repeat each arguments)) {
            try resolveTyped(tag: tag, typeOfArguments: (repeat each A).self, arguments: $0)
        }
    }

    /// Resolves an instance of a type known only at run time.
    ///
    /// ```swift
    /// let service = try container.resolve(Service.self) as? Service
    /// ```
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    public func resolve(_ type: Any.Type, tag: DependencyTagConvertible? = nil) throws -> Any {
        let key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try resolveAny(key, arguments: zeroSizedArguments)
    }

    /// Resolves an instance of a type known only at run time, from a definition that takes runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<each A>(_ type: Any.Type, tag: DependencyTagConvertible? = nil, arguments: repeat each A)
        throws -> Any
    {
        let key = DefinitionKey(type: type, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        return try withArgumentsPointer(to: (repeat each arguments)) { try resolveAny(key, arguments: $0) }
    }
}
