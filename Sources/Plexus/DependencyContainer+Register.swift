internal import PlexusCore

extension DependencyContainer {
    /// Registers a factory for `T`, taking any number of runtime arguments.
    ///
    /// ```swift
    /// container.register { ServiceImp() as Service }                  // .shared, no arguments
    /// container.register(.singleton, tag: "prod") { Api(url: prodURL) }
    /// container.register(.unique) { (id: Int, title: String) in Cell(id: id, title: title) }
    /// container.register(type: Service.self) { ServiceImp() }
    /// ```
    ///
    /// Registering again under the same key (type, argument types, tag) replaces the old definition and drops
    /// every instance cached for it. Registering after ``bootstrap()-y393`` is fine: an eager singleton registered late
    /// is created by the next `bootstrap()` or on first use.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance from the runtime arguments. It may resolve other dependencies, from this or
    ///     any container; errors it throws propagate out of `resolve` unchanged.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @inlinable
    @discardableResult
    public func register<T, each A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (repeat each A) throws -> T
    ) -> Definition<T, (repeat each A)> {
        let definition = Definition<T, (repeat each A)>(
            Blueprint.parts(scope: scope, type: T.self, factory: factory),
            site: CallSite(file: file, line: line))
        register(definition, tag: tag, isFresh: true)
        return definition
    }

    /// Registers a factory for `T` taking one runtime argument: the same as the variadic `register`, spelled out so
    /// that Dip code stating the definition's type compiles.
    ///
    /// ```swift
    /// let cell: Definition<Cell, Int> = container.register(.unique) { (id: Int) in Cell(id: id) }
    /// ```
    ///
    /// Swift cannot infer a one-element argument pack from a type annotation; without this overload that line picks
    /// no synchronous `register` and reports the `@MainActor` one's result type.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance from the runtime argument; errors it throws propagate out of `resolve`.
    /// - Returns: The definition, to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @inlinable
    @discardableResult
    public func register<T, A>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (A) throws -> T
    ) -> Definition<T, A> {
        let definition = Definition<T, A>(
            Blueprint.parts(scope: scope, type: T.self, factory: factory),
            site: CallSite(file: file, line: line))
        register(definition, tag: tag, isFresh: true)
        return definition
    }

    /// Registers a factory for `T` that is handed the container it resolves from: the form to use, since the
    /// factory needs no capture list and cannot keep the container alive.
    ///
    /// ```swift
    /// container.register { c in Presenter(api: try c.resolve()) }
    /// container.register(.singleton, tag: "prod") { c in Api(session: try c.resolve(tag: "prod")) }
    /// container.register { (c: DependencyContainer) -> Service in ServiceImp(log: try c.resolve()) }
    /// ```
    ///
    /// A factory that captures the container strongly (`register { Presenter(api: try container.resolve()) }`)
    /// makes a reference cycle — container, definition, factory, container — and the container is never freed;
    /// the capture form `{ [unowned container] in … }` still works, but forgetting the capture list leaks silently.
    /// Here the container is passed in by the resolve that runs the factory, and the definition holds nothing.
    ///
    /// The container passed is the one the definition is registered in, the container you register with:
    /// resolving from it inside the factory joins the resolution graph in progress, so ``ComponentScope/shared``
    /// instances are shared and cycles are detected exactly as with a captured container. A definition you also
    /// register in another container with ``register(_:tag:)`` gets that container when it runs there. It costs
    /// what a captured container costs: no reference is counted.
    ///
    /// A closure with one parameter of any other type still declares a runtime argument, as in Dip
    /// (`register { (id: Int) in Cell(id: id) }`); only a `DependencyContainer` parameter is the container.
    ///
    /// - Parameters:
    ///   - scope: How long instances live; ``ComponentScope/shared`` by default.
    ///   - type: The type to register under, when it differs from the factory's result type.
    ///   - tag: A tag that tells this definition apart from others of the same type.
    ///   - file: Where `register` is called, for graph reports and messages; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - factory: Makes an instance, resolving its dependencies from the container it is handed; errors it throws
    ///     propagate out of `resolve` unchanged.
    /// - Returns: The definition (without runtime arguments), to chain ``Definition/resolvingProperties(_:)`` or
    ///   ``Definition/implements(_:tag:)``.
    @inlinable
    @discardableResult
    public func register<T>(
        _ scope: ComponentScope = .shared,
        type: T.Type = T.self,
        tag: DependencyTagConvertible? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyContainer) throws -> T
    ) -> Definition<T, ()> {
        let tagged = tag?.dependencyTag
        // A factory without arguments, not the parameter-pack form: each nested resolve of a chain of these factories
        // runs through it, and the pack form's frame is several times larger in a debug build.
        let definition = Definition<T, ()>(
            Blueprint.nullaryParts(scope: scope, type: T.self) {
                try DependencyContainer.withRunningFactoryOwner(T.self, tag: tagged, factory)
            },
            site: CallSite(file: file, line: line))
        register(definition, tag: tag, isFresh: true)
        return definition
    }

    /// Registers an existing definition under its type, argument types and `tag`.
    ///
    /// Use it to register one definition under several tags, or in another container; each container keeps its
    /// own singletons of it, while its `.shared` instance is one per resolution graph across those containers
    /// (one per definition within a graph, in any container).
    /// - Parameters:
    ///   - definition: A definition returned by `register`.
    ///   - tag: The tag to register it under, or `nil`.
    public func register<T, U>(_ definition: Definition<T, U>, tag: DependencyTagConvertible? = nil) {
        register(definition, tag: tag, isFresh: false)
    }

    /// `register(_:tag:)`; `isFresh`: `definition` was just made by the caller, which has not handed it out, so no
    /// other thread can reach it, and its state is read without its lock.
    @usableFromInline
    func register<T, U>(_ definition: Definition<T, U>, tag: DependencyTagConvertible?, isFresh: Bool) {
        // One test of the optional tag: each `tag?.…` and `tag.map` copied the existential through a generic witness.
        // Compared with `nil` first, which borrows it: binding it copies it, even when it is `nil`.
        var storedTag: Tag?
        var origin: TagOrigin?
        if tag != nil, let tag {
            storedTag = tag.dependencyTag
            origin = TagOrigin.ofEnum(Swift.type(of: tag))
        }
        let key = DefinitionKey(type: T.self, typeOfArguments: U.self, tag: storedTag)
        // Hashed once: an accessor's key has a long string tag.
        let hash = KeyTable<Slot>.hash(key)
        switch insert(definition, key: key, hash: hash, origin: origin, isFresh: isFresh) {
        case .forwarding(let registerAsForwarding):
            registerAsForwarding(self, key.tag)
        case .inserted(let collision):
            finish(collision, of: key, blueprint: definition.blueprint, origin: origin)
        }
    }

    /// Registers a definition Plexus makes itself and never hands out (a typed accessor's override) under `key`
    /// (whose `KeyTable` hash is `hash`), with `recipe`: the blueprint stands for the definition, as it does for an
    /// accessor's declared default, so that no `Definition` object is made.
    func register(_ blueprint: Blueprint, key: DefinitionKey, hash: Int, recipe: Recipe) {
        let collision = insert(blueprint, key: key, hash: hash, recipe: recipe)
        finish(collision, of: key, blueprint: blueprint, origin: nil)
    }

    /// What follows a registration, after every lock: the log lines.
    private func finish(_ collision: Collision?, of key: DefinitionKey, blueprint: Blueprint, origin: TagOrigin?) {
        if blueprint.scope == .cached { watchMemoryPressure() }
        if let collision {
            warnAboutUnexpectedReplacement(
                of: key, collision, origin: origin?.type, argumentCount: blueprint.argumentCount)
        }
        log(.verbose, "Registered \(key) as \(blueprint.scope)")
    }

    /// Logs, at `.errors`, a replacement the user probably did not mean: a tag from another enum with the same raw
    /// value, or one tuple argument replacing separate arguments of the same types (or the reverse). Dip compares
    /// these keys as equal, so Plexus does too.
    private func warnAboutUnexpectedReplacement(
        of key: DefinitionKey, _ collision: Collision, origin: Any.Type?, argumentCount newCount: Int
    ) {
        if let oldOrigin = collision.oldOrigin, let origin, oldOrigin != origin, let tag = key.tag {
            log(
                .errors,
                "Plexus: registering \(key) with a tag of \(typeName(origin)) replaced the definition registered with "
                    + "\(typeName(oldOrigin)) tag \(tag): tags compare by raw value. Give the cases different raw values "
                    + "to keep both.")
        }
        if newCount != collision.oldArgumentCount {
            log(
                .errors,
                "Plexus: registering \(key) with \(newCount) argument(s) replaced a definition with "
                    + "\(collision.oldArgumentCount) argument(s) of the same types: one tuple argument and separate "
                    + "arguments of the same types have the same key. Tag one of them to keep both.")
        }
    }

    /// Registers an existing definition under another type: Dip's form of
    /// ``Definition/implements(_:tag:)``, returning a definition for the new type.
    ///
    /// ```swift
    /// let service = container.register(.singleton) { ServiceImp() }
    /// container.register(service, type: Service.self, tag: "main")
    ///     .resolvingProperties { container, service in service.delegate = try container.resolve() }
    /// let main = try container.resolve(tag: "main") as Service   // main === the ServiceImp singleton
    /// ```
    ///
    /// Instances resolved as `F` are those of `definition`: they share its scope and cached instances. Hooks
    /// added to the returned definition run after `definition`'s own, only on instances created through `F`, and
    /// ``Definition/implements(_:tag:)`` on it adds the forwarding to `definition`. If `definition` is not yet
    /// registered in this container, it is registered here untagged first. The forwarding is registered in this
    /// container only (as in Dip); registering the returned definition again, under another tag or in another
    /// container, adds another forwarding of `definition` there (instances still shared), and
    /// ``remove(_:tag:)`` of it removes its forwarding. An instance that is not an `F` throws
    /// ``ResolutionError/invalidType(resolved:key:)`` when resolved as `F`.
    /// - Parameters:
    ///   - definition: A definition returned by `register`.
    ///   - type: The other type to resolve it as, usually a protocol its instances conform to.
    ///   - tag: The tag of the new registration, or `nil`.
    /// - Returns: The definition registered for `F`, to chain ``Definition/resolvingProperties(_:)`` on.
    @discardableResult
    public func register<T, U, F>(
        _ definition: Definition<T, U>, type: F.Type, tag: DependencyTagConvertible? = nil
    ) -> Definition<F, U> {
        let forwarding = Definition<F, U>(blueprint: definition.blueprint)
        let linkedHooks = Protected<[Hook]>([])
        forwarding.state.withLock { state in
            state.link = ForwardingLink(
                hooks: linkedHooks, relay: { [weak definition] forward in definition?.addForward(forward) },
                registerAsForwarding: { container, tag in
                    container.addForwarding(of: definition, as: F.self, tag: tag, linkedHooks: linkedHooks)
                })
        }
        addForwarding(of: definition, as: F.self, tag: tag?.dependencyTag, linkedHooks: linkedHooks)
        return forwarding
    }

    /// Registers `definition` as `F` under `tag` in this container only (Dip's `register(_:type:tag:)` registers in
    /// the receiving container), registering `definition` here untagged first if it is not registered here now.
    private func addForwarding<T, U, F>(
        of definition: Definition<T, U>, as _: F.Type, tag: Tag?, linkedHooks: Protected<[Hook]>
    ) {
        // Asked of the registry, not of the definition's record of containers: a `remove` or `reset` since emptied
        // this registry of it.
        if !isRegistered(definition) { register(definition, tag: nil) }
        addForward(
            Forward(type: F.self, tag: tag, hooks: [], linkedHooks: linkedHooks, accepts: { $0 is F }), of: definition)
    }

    /// Removes the registration of `definition` under `tag`, and with it the instances it cached here.
    /// - Parameters:
    ///   - definition: The definition to remove.
    ///   - tag: The tag it was registered with, or `nil`.
    public func remove<T, U>(_ definition: Definition<T, U>, tag: DependencyTagConvertible? = nil) {
        let key = DefinitionKey(type: T.self, typeOfArguments: U.self, tag: tag?.dependencyTag)
        let linkedHooks = definition.state.withLock { $0.linkedHooks }
        // A definition returned by `register(_:type:tag:)` is registered as a forwarding registration.
        remove(definition, key: key, linkedHooks: linkedHooks)
    }
}
