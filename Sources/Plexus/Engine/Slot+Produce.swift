internal import PlexusCore

/// Where the factory's runtime arguments come from.
enum ArgumentSource {
    /// A value of the factory's argument type (a tuple for several).
    case given(ResolveArguments)

    /// The arguments at `address`, from outside the engine (bootstrap, `validate`).
    static func pointer(_ address: UnsafeRawPointer) -> ArgumentSource {
        .given(ResolveArguments(at: address))
    }
    /// Resolve them from the owner (auto-wiring), passing the requested tag down.
    case autoWire
}

/// One request of a slot on the general path: the requested key, the forwarding registration it came through (if
/// any), where the factory's arguments come from, the container whose slot it is, and the calling thread's graph.
/// These travel together from `produce` to the factory and back to `store`.
struct SlotRequest {
    let key: DefinitionKey
    let forward: Forward?
    let arguments: ArgumentSource
    let owner: DependencyContainer
    let graph: ResolutionGraph
}

extension Slot {
    /// Gets an instance, starting from what `acquire` said under the lock.
    ///
    /// When `result` is given and the request's key is this definition's own type (not a forwarding registration),
    /// the instance is copied into `result` and `nil` is returned; otherwise the instance is returned as `Any`.
    func produce(_ first: Acquisition, _ request: SlotRequest, into result: InstanceStorage?) throws -> Any? {
        let typed = request.forward == nil && blueprint.type == request.key.type ? result : nil
        guard case .construct(let construction) = first else { return try reuse(first, request, into: typed) }
        if blueprint.scope == .shared, let instance = request.graph.sharedInstance(of: definition) {
            return try deliver(instance, into: typed, key: request.key)
        }
        if blueprint.isolation != .none {
            // an `async` or `@MainActor` factory cannot run here (Slot+Isolation.swift).
            try checkIsolation(construction, request)
        }
        // A singleton is built in a box of its own, which the scope keeps; a typed request for `.unique` or `.shared`
        // has the factory write straight into the caller's storage; an erased one (through forwarding, `T?`, or
        // `resolve(_: Any.Type)`) builds it in temporary storage on the stack and hands over a copy as `Any`.
        guard typed == nil, !blueprint.scope.isSingleton else {
            return try construct(construction, request, into: typed)
        }
        return try constructErased(construction, request)
    }

    /// A cached instance, or one to wait for; out of line, so that waiting stays off the stack of nested factories.
    @inline(never)
    private func reuse(
        _ first: Acquisition, _ request: SlotRequest, into typed: InstanceStorage?
    ) throws -> Any? {
        let (key, owner, graph) = (request.key, request.owner, request.graph)
        var acquisition = first
        while true {
            switch acquisition {
            case .cached(let box):
                return deliver(box, into: typed)
            case .cachedObject(let object):
                return try deliver(object, into: typed, key: key)
            case .wait(let pending):
                if let value = try wait(for: pending, request) { return deliver(value, into: typed) }
                acquisition = owner.registry.withLockKeepingReaders { _ in acquire(key, graph: graph) }
            case .construct:
                return try produce(acquisition, request, into: typed)
            }
        }
    }

    /// Waits for another graph's construction of this singleton: the value it lends (to deliver), or `nil` when it
    /// ended (acquire again).
    func wait(for pending: Pending, _ request: SlotRequest) throws -> InstanceBox? {
        let (key, owner, graph) = (request.key, request.owner, request.graph)
        // never block a thread on a construction that may suspend (Slot+Isolation.swift).
        if mustNotBlock(on: pending) { throw ResolutionError.requiresAwait(key: key) }
        guard try graph.wait(for: pending, requested: key, slot: self) == .lent,
            let value = owner.registry.withLockKeepingReaders({ _ in pending === self.pending ? pendingValue : nil })
        else { return nil }
        // Waiting for the publication would deadlock: use the instance whose hooks the other graph is still running,
        // and finish only together with that graph.
        graph.borrow(pending)
        return value
    }

    func deliver(_ box: InstanceBox, into typed: InstanceStorage?) -> Any? {
        guard let typed else { return box.value }
        blueprint.ops.copy(box.storage, typed)
        return nil
    }

    @inline(never)
    private func deliver(_ instance: Any, into typed: InstanceStorage?, key: DefinitionKey) throws -> Any? {
        guard let typed else {
            // A weak singleton of an `Optional` holds the object it wraps: handed over erased, it is wrapped again.
            guard blueprint.type is any OptionalType.Type, !(type(of: instance) is any OptionalType.Type) else {
                return instance
            }
            let ops = blueprint.ops
            return try InstanceStorage.withTemporary(byteCount: ops.size, alignment: ops.alignment, for: ops.type) {
                temporary in
                _ = try deliver(instance, into: temporary, key: key)
                defer { ops.destroy(temporary) }
                return ops.box(temporary)
            }
        }
        guard blueprint.ops.unbox(instance, typed) else {
            throw ResolutionError.invalidType(resolved: type(of: instance), key: key)
        }
        return nil
    }

    /// Builds a `.unique` or `.shared` instance in temporary storage and returns a copy as `Any`.
    @inline(never)
    private func constructErased(_ construction: Construction, _ request: SlotRequest) throws -> Any? {
        let ops = blueprint.ops
        return try InstanceStorage.withTemporary(byteCount: ops.size, alignment: ops.alignment, for: ops.type) {
            temporary in
            _ = try construct(construction, request, into: temporary)
            defer { ops.destroy(temporary) }
            return ops.box(temporary)
        }
    }

    /// Runs the factory inside the graph's frame for it, then caches and hands over the instance.
    private func construct(
        _ construction: Construction, _ request: SlotRequest, into destination: InstanceStorage?
    ) throws -> Any? {
        let (recipe, owner, graph) = (construction.recipe, request.owner, request.graph)
        do {
            return try Pinned.with(request.key) { key in
                try graph.runFactory(of: self, requested: key, owner: owner) {
                    let box = try withArguments(from: request.arguments, key: key.value, owner: owner) {
                        arguments -> InstanceBox? in
                        if let destination, !blueprint.scope.isSingleton {
                            try blueprint.make(arguments, into: destination)
                            recipe.decorators?.apply(destination)  // decorators run once per instance
                            return nil
                        }
                        return try InstanceBox(ops: blueprint.ops) {
                            try blueprint.make(arguments, into: $0)
                            recipe.decorators?.apply($0)  // decorators run once per instance
                        }
                    }
                    // Still inside the factory's frame, so that queued hooks can take its context.
                    return try store(
                        box, typed: destination, construction, forward: request.forward, owner: owner, graph: graph)
                }
            }
        } catch {
            if let claim = construction.claim { abandon(claim, owner: owner) }
            throw error
        }
    }

    /// Rolls back a singleton construction whose factory threw, and wakes the graphs waiting for it.
    @inline(never)
    func abandon(_ claim: Pending, owner: DependencyContainer) {
        let dropped = owner.registry.withLock { _ in rollBack(claim) }
        claim.signal.open(rollback: .init(error: nil))
        withExtendedLifetime(dropped) {}
    }

    /// Caches a new instance in its scope, queues its property hooks, and hands it over. Out of line: it runs after
    /// the factory returned, so its locals need not sit on the stack of nested factories.
    @inline(never)
    func store(
        _ box: InstanceBox?, typed: InstanceStorage?, _ construction: Construction, forward: Forward?,
        owner: DependencyContainer, graph: ResolutionGraph
    ) throws -> Any? {
        let (recipe, claim, cachedInfo) = (construction.recipe, construction.claim, construction.typeInfo)
        let ops = blueprint.ops
        // The factory wrote either into the box or into `typed`.
        guard let written = box?.storage ?? typed else { return nil }
        var instance = box?.value
        func boxed() -> Any {
            if let instance { return instance }
            let value = ops.box(written)
            instance = value
            return value
        }

        switch blueprint.scope {
        case .unique:
            break
        case .shared:
            graph.storeShared(boxed(), of: definition)
        case .singleton, .eagerSingleton, .weakSingleton, .cached:
            if let claim, let box {
                owner.registry.withLock { _ in
                    if pending === claim { pendingValue = box }
                }
                claim.signal.markValueReady()
                graph.willCommit(claim, slot: self, owner: owner)
            }
            // `validate` reuses what it made itself, published or not (`GraphRecorder.fresh`).
            if let box, let recorder = graph.state.recorder { recorder.keep(box, of: self) }
        }

        let injecting = recipe.autoInjects ?? owner.autoInjectProperties
        let info: TypeInfo
        if let cachedInfo, cachedInfo.type == ops.dynamicType(of: written) {
            info = cachedInfo
        } else {
            info = TypeInfo.of(boxed(), injecting: injecting, completing: owner.callsResolvable)
            owner.registry.withLock { _ in typeInfo = info }
        }
        let autoInjects = info.hasInjectedProperties && injecting
        if !recipe.hooks.isEmpty || autoInjects || info.isResolvable || forward?.hooks.isEmpty == false,
            let context = graph.context
        {
            graph.defer(
                DeferredHooks(
                    instance: boxed(), recipe: recipe, autoInjects: autoInjects, isResolvable: info.isResolvable,
                    forward: forward, owner: owner, context: context))
        }

        if typed == nil { return boxed() }
        if let box, let typed { ops.copy(box.storage, typed) }
        return nil
    }

    /// Calls `body` with the factory's arguments. Errors from resolving auto-wired arguments are wrapped in
    /// `autoWiringFailed`; errors from `body` (the factory) propagate unchanged.
    @inline(__always)
    private func withArguments<R>(
        from source: ArgumentSource,
        key: DefinitionKey,
        owner: DependencyContainer,
        _ body: (ResolveArguments) throws -> R
    ) throws -> R {
        if case .given(let arguments) = source { return try body(arguments) }
        return try withAutoWiredArguments(key: key, owner: owner, body)
    }

    /// Resolves the factory's arguments from `owner` and calls `body` with them.
    @inline(never)
    func withAutoWiredArguments<R>(
        key: DefinitionKey,
        owner: DependencyContainer,
        _ body: (ResolveArguments) throws -> R
    ) throws -> R {
        guard let autoWire = blueprint.autoWire else { throw ResolutionError.definitionNotFound(key: key) }
        var result: R?
        var factoryError: (any Error)?
        do {
            try autoWire(owner, key.tag) { arguments in
                do {
                    result = try body(ResolveArguments(at: arguments))
                } catch {
                    factoryError = error
                    throw error
                }
            }
        } catch {
            if let factoryError { throw factoryError }
            throw autoWiringFailure(error, key: key)
        }
        guard let result else { throw ResolutionError.definitionNotFound(key: key) }
        return result
    }

    /// The error of an auto-wired request for `key` whose argument failed with `error`: `autoWiringFailed`, naming
    /// the runtime arguments this definition takes.
    @inline(never)
    func autoWiringFailure(_ error: any Error, key: DefinitionKey) -> any Error {
        ResolutionError.wrapping(error) {
            .autoWiringFailed(type: key.type, underlyingError: ResolutionError.notingRuntimeArguments($0, of: self.key))
        }
    }
}

/// The property work due on a new instance, queued until the outermost factory of the graph has returned.
///
/// A struct: an object per hooked instance would cost two allocations per graph of two hooked objects, which
/// `Benchmarks/guard` bounds; copying the struct costs about as much time (`Benchmarks/profile graph/plexus`).
struct DeferredHooks {
    let instance: Any
    let recipe: Recipe
    let autoInjects: Bool
    let isResolvable: Bool
    let forward: Forward?
    let owner: DependencyContainer
    /// The context of the instance's resolution, restored while its hooks run.
    let context: DependencyContainer.Context

    /// Runs the property work in Dip's order: `resolveDependencies` of a `Resolvable`, then auto-injection, then
    /// the definition's hooks, then those of the forwarding registration it was resolved through.
    /// `didResolveDependencies` is queued for the end of the scope.
    func run(in graph: ResolutionGraph) throws {
        if isResolvable, let resolvable = instance as? Resolvable {
            resolvable.resolveDependencies(owner)
            graph.didResolve(resolvable, context: context)
        }
        if autoInjects {
            try AutoInjector.inject(into: instance, resolvedAt: context.key, container: owner, graph: graph)
        }
        for hook in recipe.hooks {
            try hook(owner, instance)
        }
        if let forward {
            for hook in forward.hooks { try hook(owner, instance) }
        }
    }
}
