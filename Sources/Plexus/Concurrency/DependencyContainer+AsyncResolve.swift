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
            segment: { try self.resolveTyped(tag: tag, typeOfArguments: Void.self, arguments: $0) })
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
            segment: { _ in try self.resolveTyped() })
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
            segment: { try self.resolveTyped(tag: tag, typeOfArguments: (repeat each A).self, arguments: $0) })
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
            arguments: (), deliver: { $0 }, segment: { try self.resolveAny(key, arguments: $0) })
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
            arguments: (repeat each arguments), deliver: { $0 }, segment: { try self.resolveAny(key, arguments: $0) })
    }

    /// Resolves one argument of an auto-wired `async` factory.
    func resolveArgumentAsync<A>(_: A.Type, tag: Tag?) async throws -> A {
        try await resolve(tag: tag)
    }

    // MARK: - The async resolve

    /// The first attempt of an async resolve of a `T`, made before any `await`: synchronously on this thread's graph
    /// when no async resolve runs on this task (most definitions are synchronous), with no hop to another executor
    /// and no generic code in the library. `nil` when the resolve needs the task's graph: one is running, or the
    /// definition at the top needs `await` (its synchronous part is rolled back; `resolveAsync` starts over).
    @inlinable
    @inline(__always)
    func resolveOnThisThread<T>(tag: Tag?, typeOfArguments: Any.Type, arguments: UnsafeRawPointer) throws -> T? {
        try withResolveStorage(for: T.self) { storage in
            guard
                try resolveRawOnThisThread(
                    T.self, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: storage)
            else { return nil }
            return storage.assumingMemoryBound(to: T.self).move()
        }
    }

    /// `resolveOnThisThread(tag:typeOfArguments:arguments:)` for the key of `type`, `typeOfArguments` and `tag`, into
    /// `result`; `false` (and `result` left uninitialized) when the resolve needs the task's graph.
    @usableFromInline
    func resolveRawOnThisThread(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        guard TaskGraph.graphOfCurrentTask() == nil else { return false }
        do {
            return try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { thread in
                guard thread.depth == 0 else { return false }
                try thread.allowingAsyncStep {
                    try resolveRaw(
                        type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: result)
                }
                return true
            }
        } catch let step as AsyncStep {
            // Start over in a graph that survives suspension points (`resolveAsync`).
            step.rollBack()
            return false
        }
    }

    /// The core of every async resolve: in the graph of the async resolve already running on this task, or else
    /// first synchronously on this thread's graph (most definitions are synchronous: then no task graph is made)
    /// and, when the definition at the top needs `await`, in a new graph bound to this task.
    ///
    /// `segment` is the synchronous resolve of `key` with the arguments at a pointer; `deliver` turns an instance
    /// the async path made into the result. `attemptsOnThisThread: false` when the caller made that first attempt
    /// already (`resolveOnThisThread`), so that the synchronous part does not run twice before the task's graph.
    // `logsFailure: false` leaves logging an error to the caller (`validate`).
    @usableFromInline
    func resolveAsync<R, Arguments: Sendable>(
        arguments: Arguments, logsFailure: Bool = true, attemptsOnThisThread: Bool = true,
        deliver: (Any) throws -> R, segment: (UnsafeRawPointer) throws -> R
    ) async throws -> R {
        if let graph = TaskGraph.graphOfCurrentTask() {
            return try await resolve(arguments: arguments, in: graph, logsFailure: logsFailure, deliver, segment)
        }
        let thread = ResolutionGraph.current
        if attemptsOnThisThread, thread.depth == 0 {
            do {
                return try thread.allowingAsyncStep { try withArgumentsPointer(to: arguments, segment) }
            } catch let step as AsyncStep {
                // Start over in a graph that survives suspension points.
                step.rollBack()
            }
        }
        return try await TaskGraph.withNewGraph { graph in
            try await resolve(arguments: arguments, in: graph, logsFailure: logsFailure, deliver, segment)
        }
    }

    /// One async resolve call: a scope of the task's graph, like `inGraph` for a synchronous one.
    private func resolve<R, Arguments: Sendable>(
        arguments: Arguments, in graph: ResolutionGraph, logsFailure: Bool,
        _ deliver: (Any) throws -> R, _ segment: (UnsafeRawPointer) throws -> R
    ) async throws -> R {
        graph.openScope()
        do {
            let instance = try await produceAsync(arguments: arguments, in: graph, deliver, segment)
            try await graph.closeScopeAsync()
            return instance
        } catch {
            graph.installed { graph.abandonScope() }
            if graph.depth == 0, logsFailure { logFailure(error) }
            throw error
        }
    }

    /// Resolves synchronously in the task's graph; when that reaches a definition that needs `await` at its top,
    /// runs its factory (or waits for its singleton) here, and starts over after a wait.
    private func produceAsync<R, Arguments: Sendable>(
        arguments: Arguments, in graph: ResolutionGraph, _ deliver: (Any) throws -> R,
        _ segment: (UnsafeRawPointer) throws -> R
    ) async throws -> R {
        while true {
            let commits = graph.commitCount
            let step: AsyncStep
            do {
                let instance = try graph.installed {
                    try graph.allowingAsyncStep { try withArgumentsPointer(to: arguments, segment) }
                }
                graph.endSegment(commitsFrom: commits)
                return instance
            } catch let thrown as AsyncStep {
                step = thrown
            }
            switch step.kind {
            case .wait(let pending):
                let outcome = try await graph.waitAsync(for: pending, requested: step.key, slot: step.slot)
                if outcome == .lent,
                    let value = step.owner.registry.withLock({ _ in
                        pending === step.slot.pending ? step.slot.pendingValue : nil
                    })
                {
                    return try deliver(value.value)
                }
            case .create(let recipe, let claim, let typeInfo):
                let instance = try await constructAsync(
                    step, recipe: recipe, claim: claim, typeInfo: typeInfo, arguments: arguments, in: graph)
                return try deliver(instance)
            }
        }
    }

    /// Runs the `async` (or, off the main thread, `@MainActor`) factory of the step's slot inside the graph's frame
    /// for it, then caches the instance in its scope and queues its property hooks, as the synchronous path does.
    private func constructAsync<Arguments: Sendable>(
        _ step: AsyncStep, recipe: Recipe, claim: Pending?, typeInfo: TypeInfo?, arguments: Arguments,
        in graph: ResolutionGraph
    ) async throws -> Any {
        let slot = step.slot
        let owner = step.owner
        let id = ObjectIdentifier(slot)
        // The frame points at the key until it pops, across suspension points: heap memory of its own.
        let key = UnsafeMutablePointer<DefinitionKey>.allocate(capacity: 1)
        key.initialize(to: step.key)
        defer {
            key.deinitialize(count: 1)
            key.deallocate()
        }
        var inFrame = false
        do {
            guard let factory = slot.blueprint.asyncFactory else { throw ResolutionError.requiresAwait(key: step.key) }
            try graph.installed { try graph.enterFactory(id, requested: key) }
            inFrame = true
            let values: Any
            if step.autoWires {
                guard let autoWire = factory.autoWire else { throw ResolutionError.definitionNotFound(key: step.key) }
                do {
                    values = try await autoWire(owner, step.key.tag)
                } catch {
                    throw ResolutionError.wrapping(error) {
                        .autoWiringFailed(
                            type: step.key.type,
                            underlyingError: ResolutionError.notingRuntimeArguments($0, of: slot.key))
                    }
                }
            } else {
                // The async `validate` hands its argument sets over wrapped.
                values = (arguments as? UncheckedArguments)?.value ?? arguments
            }
            let made = try await factory.run(values, GraphToken(graph: graph))
            let instance = try graph.installed { () throws -> Any in
                let ops = slot.blueprint.ops
                let box = try InstanceBox(ops: ops) { pointer in
                    guard ops.unbox(made, pointer) else {
                        throw ResolutionError.invalidType(resolved: type(of: made), key: step.key)
                    }
                    recipe.decorators?.apply(pointer)  // decorators run once per instance
                }
                // Still inside the factory's frame, so that queued hooks can take its context.
                let stored = try slot.store(
                    box, typed: nil, recipe: recipe, claim: claim, typeInfo: typeInfo, forward: step.forward,
                    owner: owner, graph: graph)
                graph.leaveFactory(id)
                inFrame = false
                return stored ?? box.value
            }
            if let forward = step.forward, !forward.accepts(instance) {
                throw ResolutionError.invalidType(resolved: type(of: instance), key: step.key)
            }
            return instance
        } catch {
            if inFrame { graph.leaveFactory(id) }
            if let claim { slot.abandon(claim, owner: owner) }
            throw error
        }
    }
}
