// The direct path (DependencyContainer+DirectPath.swift) for a singleton's first construction: claimed for the
// calling thread's graph under the owner's lock, built in a box of its own, stored as the general path stores it.

extension DependencyContainer {
    /// The first construction of a singleton (any singleton scope) that nobody is constructing: claimed here for the
    /// calling thread's graph, as `Slot.acquire` claims it on the general path. Call under the lock of the slot's
    /// owner. Anything else (a construction in progress, a weak singleton still alive, hooks on the main actor,
    /// decorators, an `async` factory) goes to the general path.
    func singletonStep(
        for slot: Slot, requested key: DefinitionKey, owner: Unmanaged<DependencyContainer>?
    ) -> DirectStep {
        guard slot.blueprint.scope.isSingleton, slot.instance == nil, slot.weakInstance == nil, slot.pending == nil,
            slot.hasDirectRecipe, slot.blueprint.isolation == .none
        else { return .general }
        let claimed = ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { slot.acquire(key, graph: $0) }
        guard case .create(_, let claim?, _) = claimed else { return .general }
        return .createSingleton(slot, claim: claim, owner: owner)
    }

    /// Carries out `.createSingleton`: the factory builds the claimed singleton in a box of its own inside a scope of
    /// the calling thread's graph, and `Slot.store` hands it to the graph (published when the scope that owns it
    /// ends, rolled back if it fails) and copies it into `result`, exactly as on the general path.
    @inline(never)
    func createSingleton(
        directly slot: Slot, claim: Pending, _ key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try create(
                directly: slot, type: nil, key, arguments: arguments, making: .singleton(claim), into: result,
                graph: graph)
        }
    }

    /// Runs the factory of `slot` for the singleton claimed with `claim`, in a box of its own, and stores it (see
    /// `createSingleton`). Inlined there only: `create(directly:)` has no claim.
    @inline(__always)
    func makeSingleton(
        _ slot: Slot, claim: Pending, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer,
        graph: ResolutionGraph
    ) throws {
        let box = try InstanceBox(ops: slot.blueprint.ops) { try slot.blueprint.make(arguments, into: $0) }
        // Read under the lock, as `acquire` does: hooks may be added and types learned meanwhile.
        let (recipe, info) = registry.withLockKeepingReaders { _ in (slot.recipe, slot.typeInfo) }
        _ = try slot.store(
            box, typed: result, recipe: recipe, claim: claim, typeInfo: info, forward: nil, owner: self, graph: graph)
    }
}
