// The direct path of the resolve core (DependencyContainer+Resolve.swift): the most common resolves — a published
// singleton, a hook-free `.unique` or `.shared` instance — without the general lookup and scope machinery.

extension DependencyContainer {
    /// What the direct path did, or what it is to do.
    enum DirectStep {
        /// A published singleton was copied into the caller's storage, under its owner's lock.
        case copied
        /// Run the factory of `slot`, whose instances need no hooks, in `owner` (this container when `nil`: no
        /// reference to it is taken). The owner is retained once, for the caller to take: a collaborator is
        /// weakly referenced, which makes each retain and release of it slow.
        case create(Slot, type: ObjectIdentifier, owner: Unmanaged<DependencyContainer>?)
        /// Leave the request to the general path.
        case general
    }

    /// What the direct path can do with a slot; decided under its owner's lock.
    enum DirectDecision {
        case copy(InstanceBox)
        case create(Slot, type: ObjectIdentifier)
    }

    /// The most common resolves, without the general machinery: a published singleton (copied into `result` under
    /// the lock, no resolution graph, no reference counting of the box or the container), and a `.unique` or
    /// `.shared` definition whose instances are known to need no hooks (`directDecision(for:)`). Either under the
    /// exact key here or where a remembered route through the collaborators points.
    @inline(never)
    func directStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> DirectStep {
        var routed: (owner: Unmanaged<DependencyContainer>, slot: Unmanaged<Slot>, generation: Int)?
        let step = registry.withLock { registry -> DirectStep in
            if let step = registry.slots.withBorrowedValue(for: key, { directStep(for: $0, into: result, owner: nil) })
            {
                return step
            }
            // The route's fields are read in place; its slot is only touched under its owner's lock, below.
            routed =
                registry.routes.withBorrowedValue(for: key) { route in
                    guard route.generation == Generation.current, route.forward == nil, route.requested == key,
                        !route.autoWires, let owner = route.owner
                    else { return nil }
                    return (Unmanaged.passRetained(owner), route.slot, route.generation)
                } ?? nil
            return .general
        }
        guard let routed else { return step }
        let routedStep = routed.owner._withUnsafeGuaranteedRef { owner in
            owner.registry.withLock { _ in
                // Still current under the owner's lock: the owner still holds the slot (see `Route`).
                guard let slot = Route.slot(routed.slot, ifCurrentAt: routed.generation) else {
                    return DirectStep.general
                }
                return directStep(for: slot, into: result, owner: routed.owner)
            }
        }
        // `.create` hands the owner's reference on; otherwise it is not needed any more.
        if case .create = routedStep {} else { routed.owner.release() }
        return routedStep
    }

    /// `directStep(for:into:)` for one slot. Call under the lock of the slot's owner.
    private func directStep(
        for slot: Slot, into result: UnsafeMutableRawPointer, owner: Unmanaged<DependencyContainer>?
    ) -> DirectStep {
        // Copying a value runs no user code (a retain at most), so it may happen under the lock.
        if slot.copyPublished(into: result) { return .copied }
        guard case .create(let slot, let type)? = directDecision(for: slot) else { return .general }
        return .create(slot, type: type, owner: owner)
    }

    /// What the direct path can do with `slot`, or `nil` for the general path. Call under the owner's lock.
    ///
    /// A `.unique` or `.shared` definition without hooks or decorators whose instances, as far as the slot knows,
    /// need no property work. Before its first instance the slot knows nothing: the direct path then learns the
    /// instance's type after the factory returned (`finishDirect`), as it does whenever the dynamic type changes.
    func directDecision(for slot: Slot) -> DirectDecision? {
        if let instance = slot.instance { return .copy(instance) }
        let scope = slot.blueprint.scope
        guard scope == .unique || scope == .shared,
            slot.hasPlainRecipe,  // no hooks; §18: decorated slots take the general path
            slot.blueprint.isolation == .none  // §20: async and main-actor factories are checked on the general path
        else { return nil }
        guard let info = slot.typeInfo else { return .create(slot, type: ObjectIdentifier(NotYetMade.self)) }
        guard !info.isResolvable, !info.hasInjectedProperties else { return nil }
        return .create(slot, type: info.type)
    }

    /// The dynamic type of no instance: what the direct path expects before a slot's first instance.
    private enum NotYetMade {}

    /// Carries out a decision of `directDecision(for:)`: copies the published singleton into `result`, or makes a
    /// new instance there.
    @inline(never)
    func resolve(
        directly decision: DirectDecision, _ key: DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        switch decision {
        case .copy(let published):
            published.copy(into: result)
        case .create(let slot, let type):
            try withUnsafePointer(to: key) {
                try create(directly: slot, type: type, $0, arguments: arguments, into: result)
            }
        }
    }

    /// The direct path's new instance: the factory of `slot` (whose instances need no hooks) runs into `result` in
    /// a scope of the calling thread's resolution graph. The same steps as `inGraph` (open the scope; close it, or
    /// abandon it on an error; release the leftovers of an outermost resolve), written out so that no closure and
    /// no `Delivery` is built around the factory.
    @inline(never)
    func create(
        directly slot: Slot, type: ObjectIdentifier, _ key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try create(directly: slot, type: type, key, arguments: arguments, into: result, graph: graph)
        }
    }

    /// `create(directly:type:_:arguments:into:)` in the calling thread's `graph`, borrowed.
    @inline(__always)
    private func create(
        directly slot: Slot, type: ObjectIdentifier, _ key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.scope == .shared, graph.depth > 0,
            try copyShared(of: slot, in: graph, key, into: result)
        {
            return
        }
        let scope = graph.openLightScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            try graph.runFactory(of: slot, requested: key) {
                try slot.blueprint.factory(arguments, result)
                try finishDirect(slot, type: type, result: result, graph: graph)
            }
            do {
                try graph.closeLightScope(scope)
            } catch {
                slot.blueprint.ops.destroy(result)
                throw error
            }
        } catch {
            graph.abandonLightScope(scope)
            if graph.depth == 0 { logFailure(error) }
            throw error
        }
    }

    /// Copies the graph's instance of the `.shared` definition of `slot` into `result`, if the graph has one.
    /// Out of line, so that its existential stays off the stack of nested resolves.
    @inline(never)
    private func copyShared(
        of slot: Slot, in graph: ResolutionGraph, _ key: UnsafePointer<DefinitionKey>,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        guard let shared = graph.sharedInstance(of: slot) else { return false }
        // Stored as made, so it has the slot's type.
        guard slot.blueprint.ops.unbox(shared, result) else {
            throw ResolutionError.invalidType(resolved: Swift.type(of: shared), key: key.pointee)
        }
        return true
    }

    /// After a direct factory returned: an instance of another dynamic type than last time gets what it needs
    /// learned (and its hooks queued if any); a shared one is kept for the rest of the graph (for an outermost
    /// resolve only if hooks are queued, which may resolve it again).
    @inline(never)
    private func finishDirect(
        _ slot: Slot, type: ObjectIdentifier, result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.ops.dynamicType(result) != type {
            _ = try slot.store(
                nil, typed: result, recipe: slot.recipe, claim: nil, typeInfo: nil, forward: nil, owner: self,
                graph: graph)
        } else if slot.blueprint.scope == .shared, graph.depth > 1 || graph.hasQueuedHooks {
            graph.storeShared(slot.blueprint.ops.box(result), of: slot)
        }
    }
}
