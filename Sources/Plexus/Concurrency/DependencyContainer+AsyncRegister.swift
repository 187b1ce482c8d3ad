extension DependencyContainer {
    /// Registers an `async` factory for `T`, taking any number of runtime arguments.
    ///
    /// ```swift
    /// container.register(.singleton) { () async throws -> Session in try await Session.open() }
    /// container.register { (id: Int) async throws -> Document in try await Document.load(id) }
    /// let session: Session = try await container.resolve()
    /// ```
    ///
    /// Only `try await container.resolve()` runs an async factory; a synchronous `resolve` that reaches it throws
    /// ``ResolutionError/requiresAwait(key:)`` instead of blocking the thread (once its singleton exists, a
    /// synchronous resolve returns it). Its property hooks are synchronous, as for any definition; they run at the
    /// end of the async resolve. Every scope works; a singleton is created once even when several tasks resolve it
    /// while its factory suspends.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance from the runtime arguments; it may `await`, and resolve other dependencies
    ///     with `try await container.resolve()` in the same resolution graph.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @discardableResult
    public func register<T, each A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (repeat each A) async throws -> T
    ) -> Definition<T, (repeat each A)> {
        let definition = Definition<T, (repeat each A)>(
            blueprint: Blueprint.makeAsync(scope: scope, factory: factory), site: CallSite(file: file, line: line))
        register(definition, tag: tag)
        return definition
    }

    /// Registers an `async` factory for `T` taking one runtime argument: the variadic `async` `register`, spelled out
    /// so that a stated type (`let d: Definition<Document, Int> = container.register { (id: Int) async in … }`)
    /// compiles; Swift cannot infer a one-element argument pack from a type annotation.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance from the runtime argument; it may `await`.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @discardableResult
    public func register<T, A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (A) async throws -> T
    ) -> Definition<T, A> {
        let definition = Definition<T, A>(
            blueprint: Blueprint.makeAsync(scope: scope, factory: factory), site: CallSite(file: file, line: line))
        register(definition, tag: tag)
        return definition
    }

    /// Registers a `@MainActor` factory for `T`: the everyday view model or presenter, built on the main
    /// actor, with `@MainActor` property hooks.
    ///
    /// ```swift
    /// container.register { @MainActor c in Presenter(api: try c.resolve()) }
    ///     .resolvingProperties { @MainActor container, presenter in presenter.view = try container.resolve() }
    /// let presenter: Presenter = try container.resolve()          // on the main actor: synchronously
    /// let same: Presenter = try await container.resolve()        // elsewhere: hops to the main actor
    /// ```
    ///
    /// A synchronous `resolve` on the main actor runs the factory in place; off the main actor it throws
    /// ``ResolutionError/requiresMainActor(key:)`` (it never traps); `try await container.resolve()` hops to the main
    /// actor to run it, and its hooks, from anywhere. Swift picks this overload for a closure marked `@MainActor`;
    /// it returns a ``MainActorDefinition``, whose hooks are main-actor code.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance on the main actor from the runtime arguments.
    /// - Returns: The definition, to chain main-actor property hooks on.
    @discardableResult
    public func register<T, each A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (repeat each A) throws -> T
    ) -> MainActorDefinition<T, (repeat each A)> {
        let definition = Definition<T, (repeat each A)>(
            blueprint: Blueprint.makeMainActor(scope: scope, factory: factory), site: CallSite(file: file, line: line))
        register(definition, tag: tag)
        return MainActorDefinition(definition)
    }

    /// Registers a `@MainActor` factory for `T` taking one runtime argument: the variadic main-actor `register`,
    /// spelled out so that a stated type (`let d: MainActorDefinition<Screen, Int> = container.register { @MainActor
    /// (id: Int) in … }`) compiles; Swift cannot infer a one-element argument pack from a type annotation.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance on the main actor from the runtime argument.
    /// - Returns: The definition, to chain main-actor property hooks on.
    @discardableResult
    public func register<T, A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (A) throws -> T
    ) -> MainActorDefinition<T, A> {
        let definition = Definition<T, A>(
            blueprint: Blueprint.makeMainActor(scope: scope, factory: factory), site: CallSite(file: file, line: line))
        register(definition, tag: tag)
        return MainActorDefinition(definition)
    }

    /// Registers an `async` factory for `T` that is handed the container it resolves from, with no capture list:
    /// the async form of the synchronous `register { c in … }`.
    ///
    /// ```swift
    /// container.register(.singleton) { c async throws in try await Session.open(config: try c.resolve()) }
    /// ```
    ///
    /// As there, the container passed is the one the definition runs in, held by nothing, and resolving from it joins the
    /// resolution graph in progress, across every `await`.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance, resolving its dependencies from the container it is handed; it may `await`.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @discardableResult
    public func register<T>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyContainer) async throws -> T
    ) -> Definition<T, ()> {
        let tagged = tag?.dependencyTag
        return register(scope, type: type, tag: tag, file: file, line: line) { () async throws -> T in
            try await factory(DependencyContainer.runningAsyncFactoryOwner(T.self, tag: tagged))
        }
    }

    /// Registers a `@MainActor` factory for `T` that is handed the container it resolves from, with no capture
    /// list: the everyday view model or presenter.
    ///
    /// ```swift
    /// container.register { @MainActor c in Presenter(api: try c.resolve()) }
    ///     .resolvingProperties { @MainActor c, presenter in presenter.view = try c.resolve() }
    /// ```
    ///
    /// It resolves as any `@MainActor` factory does (synchronously on the main actor, by a hop with
    /// `try await container.resolve()` from elsewhere); the container passed is the one the definition runs in,
    /// as for a synchronous factory.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance on the main actor, resolving its dependencies from the container it is
    ///     handed.
    /// - Returns: The definition, to chain main-actor property hooks on.
    @discardableResult
    public func register<T>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (DependencyContainer) throws -> T
    ) -> MainActorDefinition<T, ()> {
        let tagged = tag?.dependencyTag
        return register(scope, type: type, tag: tag, file: file, line: line) {
            @MainActor () throws -> T in
            try factory(DependencyContainer.runningMainActorFactoryOwner(T.self, tag: tagged))
        }
    }
}
