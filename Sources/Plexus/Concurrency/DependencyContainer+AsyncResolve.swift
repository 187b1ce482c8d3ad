internal import PlexusCore

extension DependencyContainer {
    /// Resolves an instance of `T` with `await`: the async form of ``resolve(tag:)-67ys9``, which also runs `async`
    /// factories and hops to the main actor for `@MainActor` ones.
    ///
    /// ```swift
    /// container.register(.singleton) { () async throws -> Session in try await Session.open() }
    /// let session: Session = try await container.resolve()
    /// let api = try await container.resolve(tag: "prod") as Api   // a synchronous definition resolves too
    /// ```
    ///
    /// One resolution graph spans the whole call, across every `await` in it: `.shared` instances are shared,
    /// cycles are detected with their path, and property hooks run once the outermost factory returned (on the
    /// main actor when a hook is `@MainActor` code). A singleton whose factory suspends is created once: other
    /// tasks resolving it meanwhile wait for it without blocking a thread, and if its creation throws (or is
    /// cancelled: the factory throws `CancellationError`), nothing is cached and the next resolve tries again.
    ///
    /// Synchronous parts of the graph publish their singletons as soon as they return when nothing in the graph
    /// waits for property hooks, so that a thread resolving synchronously never blocks on a singleton whose
    /// publication waits for an `await`; otherwise those singletons are published (or, if the resolve fails, rolled
    /// back) when it ends, and meanwhile a synchronous resolve of one of them throws
    /// ``ResolutionError/requiresAwait(key:)`` rather than wait. Typed accessors, synchronous resolves and `context`
    /// reached from an async factory's body belong to the same graph. Child tasks started inside a factory resolve
    /// in graphs of their own. In an async context, Swift picks this overload for `try await container.resolve()`;
    /// the synchronous one is no longer chosen there, so write `await`.
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``; errors of `async` factories propagate unchanged.
    @inlinable
    public func resolve<T>(tag: DependencyTagConvertible?) async throws -> T {
        let tag = tag?.dependencyTag
        let onThisThread: T? = try resolveOnThisThread(
            tag: tag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
        if let onThisThread { return onThisThread }
        return try await resolveAsync(
            arguments: (), attemptsOnThisThread: false,
            deliver: { try self.cast($0, typeOfArguments: Void.self, tag: tag) },
            segment: { try self.resolveTypedSegment(tag: tag, typeOfArguments: Void.self, arguments: $0) })
    }

    /// Resolves an untagged instance of `T` with `await`: the async form of ``resolve()``.
    ///
    /// ```swift
    /// let session: Session = try await container.resolve()
    /// ```
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T>() async throws -> T {
        let onThisThread: T? = try resolveOnThisThread(
            tag: nil, typeOfArguments: Void.self, arguments: zeroSizedArguments)
        if let onThisThread { return onThisThread }
        return try await resolveAsync(
            arguments: (), attemptsOnThisThread: false,
            deliver: { try self.cast($0, typeOfArguments: Void.self, tag: nil) },
            segment: { try self.resolveTypedSegment(tag: nil, typeOfArguments: Void.self, arguments: $0) })
    }

    /// Resolves an instance of `T` from a definition that takes runtime arguments, with `await`.
    ///
    /// ```swift
    /// container.register { (id: Int) async throws -> Document in try await Document.load(id) }
    /// let document: Document = try await container.resolve(arguments: 42)
    /// ```
    /// - Parameters:
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T, each A: Sendable>(tag: DependencyTagConvertible? = nil, arguments: repeat each A)
        async throws -> T
    {
        let tag = tag?.dependencyTag
        let onThisThread = try withArgumentsPointer(to: (repeat each arguments)) { pointer -> T? in
            try resolveOnThisThread(tag: tag, typeOfArguments: (repeat each A).self, arguments: pointer)
        }
        if let onThisThread { return onThisThread }
        return try await resolveAsync(
            arguments: (repeat each arguments), attemptsOnThisThread: false,
            deliver: { try self.cast($0, typeOfArguments: (repeat each A).self, tag: tag) },
            segment: {
                try self.resolveTypedSegment(tag: tag, typeOfArguments: (repeat each A).self, arguments: $0)
            })
    }

    /// Resolves an instance of a type known only at run time, with `await`.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    public func resolve(_ type: Any.Type, tag: DependencyTagConvertible? = nil) async throws -> Any {
        let key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try await resolveAsync(
            arguments: (), deliver: { $0 }, segment: { try self.resolveAnySegment(key, arguments: $0) })
    }

    /// Resolves an instance of a type known only at run time, from a definition that takes runtime arguments, with
    /// `await`: the async form of `resolve(_:tag:arguments:)`.
    ///
    /// ```swift
    /// let document = try await container.resolve(Document.self, arguments: 42)
    /// ```
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    public func resolve<each A: Sendable>(
        _ type: Any.Type, tag: DependencyTagConvertible? = nil, arguments: repeat each A
    ) async throws -> Any {
        let key = DefinitionKey(type: type, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        return try await resolveAsync(
            arguments: (repeat each arguments), deliver: { $0 },
            segment: { try self.resolveAnySegment(key, arguments: $0) })
    }

    /// Resolves one argument of an auto-wired `async` factory.
    func resolveArgumentAsync<A>(_: A.Type, tag: Tag?) async throws -> A {
        try await resolve(tag: tag)
    }
}
