internal import PlexusCore

// The async resolve core: the counterpart of `DependencyContainer+Core.swift` for `try await container.resolve()`,
// first synchronously on the thread's graph, then in a graph bound to the task (`Graph/TaskGraph.swift`) when a
// definition needs `await`.

/// What a synchronous segment of an async resolve ends with: the instance, or the hand-over of a definition that needs
/// `await`, which its top reached (Slot+Isolation.swift).
@usableFromInline
enum SegmentOutcome<R> {
    case instance(R)
    case handOver(AsyncHandOver)
}

extension DependencyContainer {
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
        guard ResolutionGraph.currentIsIdle else { return false }
        guard
            let handOver = try resolveRawSegment(
                type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: result)
        else { return true }
        // Start over in a graph that survives suspension points (`resolveAsync`).
        handOver.rollBack()
        return false
    }

    /// The core of every async resolve: in the graph of the async resolve already running on this task, or else
    /// first synchronously on this thread's graph (most definitions are synchronous: then no task graph is made)
    /// and, when the definition at the top needs `await`, in a new graph bound to this task.
    ///
    /// `segment` is the synchronous resolve of `key` with the arguments at a pointer, through an entry that hands a
    /// definition that needs `await` over (`resolveTypedSegment`, `resolveAnySegment`, `resolveExactSegment`,
    /// `produceSegment`); `deliver` turns an instance the async path made into the result. `attemptsOnThisThread:
    /// false` when the caller made that first attempt already (`resolveOnThisThread`), so that the synchronous part
    /// does not run twice before the task's graph.
    // `logsFailure: false` leaves logging an error to the caller (`validate`).
    @usableFromInline
    func resolveAsync<R, Arguments: Sendable>(
        arguments: Arguments, logsFailure: Bool = true, attemptsOnThisThread: Bool = true,
        deliver: (Any) throws -> R, segment: (UnsafeRawPointer) throws -> SegmentOutcome<R>
    ) async throws -> R {
        if let graph = TaskGraph.graphOfCurrentTask() {
            return try await resolve(arguments: arguments, in: graph, logsFailure: logsFailure, deliver, segment)
        }
        if attemptsOnThisThread, ResolutionGraph.current.depth == 0 {
            switch try withArgumentsPointer(to: arguments, segment) {
            case .instance(let instance):
                return instance
            case .handOver(let handOver):
                // Start over in a graph that survives suspension points.
                handOver.rollBack()
            }
        }
        return try await TaskGraph.withNewGraph { graph in
            try await resolve(arguments: arguments, in: graph, logsFailure: logsFailure, deliver, segment)
        }
    }

    /// One async resolve call: a scope of the task's graph, like `inGraph` for a synchronous one.
    private func resolve<R, Arguments: Sendable>(
        arguments: Arguments, in graph: ResolutionGraph, logsFailure: Bool,
        _ deliver: (Any) throws -> R, _ segment: (UnsafeRawPointer) throws -> SegmentOutcome<R>
    ) async throws -> R {
        graph.openScope()
        do {
            let instance = try await produceAsync(arguments: arguments, in: graph, deliver, segment)
            try await graph.closeScopeAsync()
            return instance
        } catch {
            graph.installed { graph.abandonScope(after: error) }
            if logsFailure { logFailure(error, in: graph) }
            throw error
        }
    }

    /// Resolves synchronously in the task's graph; when that reaches a definition that needs `await` at its top,
    /// runs its factory (or waits for its singleton) here, and starts over after a wait.
    private func produceAsync<R, Arguments: Sendable>(
        arguments: Arguments, in graph: ResolutionGraph, _ deliver: (Any) throws -> R,
        _ segment: (UnsafeRawPointer) throws -> SegmentOutcome<R>
    ) async throws -> R {
        while true {
            let commits = graph.commitCount
            let step: AsyncHandOver
            switch try graph.installed({ try withArgumentsPointer(to: arguments, segment) }) {
            case .instance(let instance):
                graph.endSegment(commitsFrom: commits)
                return instance
            case .handOver(let handOver):
                step = handOver
            }
            switch step.kind {
            case .wait(let pending):
                let outcome = try await graph.waitAsync(for: pending, requested: step.key, slot: step.slot)
                if outcome == .lent,
                    let value = step.owner.registry.withLock({ _ in
                        pending === step.slot.pending ? step.slot.pendingValue : nil
                    })
                {
                    graph.borrow(pending)
                    return try deliver(value.value)
                }
            case .construct(let construction):
                let instance = try await constructAsync(step, construction, arguments: arguments, in: graph)
                return try deliver(instance)
            }
        }
    }

    /// Runs the `async` (or, off the main thread, `@MainActor`) factory of the step's slot inside the graph's frame
    /// for it, then caches the instance in its scope and queues its property hooks, as the synchronous path does.
    private func constructAsync<Arguments: Sendable>(
        _ step: AsyncHandOver, _ construction: Construction, arguments: Arguments, in graph: ResolutionGraph
    ) async throws -> Any {
        let slot = step.slot
        let owner = step.owner
        let id = ObjectIdentifier(slot)
        // The frame points at the key until it pops, across suspension points: in an object of its own, kept alive
        // to the end of this function.
        let keeper = KeyKeeper(step.key)
        defer { withExtendedLifetime(keeper) {} }
        var inFrame = false
        do {
            guard let factory = slot.blueprint.asyncFactory else { throw ResolutionError.requiresAwait(key: step.key) }
            try graph.installed { try graph.enterFactory(id, requested: keeper.pinnedKey, owner: owner) }
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
                    construction.recipe.decorators?.apply(pointer)  // decorators run once per instance
                }
                // Still inside the factory's frame, so that queued hooks can take its context.
                let stored = try slot.store(
                    box, typed: nil, construction, forward: step.forward,
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
            if let claim = construction.claim { slot.abandon(claim, owner: owner) }
            throw error
        }
    }
}

/// An argument set given to the async `validate`, on its way to an `async` factory (which unwraps it).
// `@unchecked Sendable`: the caller handed the set to `validate`, which passes it to the factory and keeps no other
// reference.
struct UncheckedArguments: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
}

/// A definition key in an object of its own, so that a frame can point at it across an `await` (`Pinned`).
private final class KeyKeeper {
    /// The key: the first stored property, where `pinnedKey` finds it.
    let key: DefinitionKey

    init(_ key: DefinitionKey) {
        self.key = key
        Pinned.checkFirstStoredProperty(of: self, is: key)
    }

    /// `key` where it lies inside the keeper, valid as long as the keeper lives.
    var pinnedKey: Pinned<DefinitionKey> { .firstStoredProperty(of: self) }
}
