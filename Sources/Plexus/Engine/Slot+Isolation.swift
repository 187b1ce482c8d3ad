/// What a synchronous resolve hands back to the async resolve that started it when the definition it
/// reached needs `await`: the factory to run, or the construction to wait for. Only thrown where
/// `State.asyncStepDepth` allows it, and always caught by the async resolve that set it, on the same task.
// `@unchecked Sendable` (an `Error` must be `Sendable`): it never leaves the task that threw and caught it.
struct AsyncStep: Error, @unchecked Sendable {
    enum Kind {
        /// Run the factory of `slot`; its claim is this graph's claim on a singleton, if any.
        case create(Construction)
        /// Another graph constructs the singleton: wait for it without blocking.
        case wait(Pending)
    }

    let kind: Kind
    let slot: Slot
    let owner: DependencyContainer
    /// The key resolved (the requested one, or the wrapped type's for an `Optional` request).
    let key: DefinitionKey
    let forward: Forward?
    /// Whether the factory's arguments are to be auto-wired.
    let autoWires: Bool

    /// Gives up the claim, if any (the async resolve starts over in a graph of its own).
    func rollBack() {
        if case .create(let construction) = kind, let claim = construction.claim { slot.abandon(claim, owner: owner) }
    }
}

extension Slot {
    /// Called before an `async` or `@MainActor` factory would run in a synchronous resolve. A `@MainActor` factory
    /// on the main thread runs in place; otherwise the async resolve that started this call takes over
    /// (`AsyncStep`), or, in a synchronous resolve, the claim is given up and the resolve throws.
    @inline(never)
    func checkIsolation(_ construction: Construction, _ request: SlotRequest) throws {
        if blueprint.isolation == .mainActor, isMainThread { return }
        var autoWires = false
        if case .autoWire = request.arguments { autoWires = true }
        if request.graph.state.pointee.asyncStepDepth == request.graph.depth {
            throw AsyncStep(
                kind: .create(construction), slot: self, owner: request.owner, key: request.key,
                forward: request.forward, autoWires: autoWires)
        }
        if let claim = construction.claim { abandon(claim, owner: request.owner) }
        throw blueprint.isolation == .mainActor
            ? ResolutionError.requiresMainActor(key: request.key) : ResolutionError.requiresAwait(key: request.key)
    }

    /// Called instead of blocking on a singleton of an `async` or `@MainActor` definition that another graph is
    /// constructing (its factory may be suspended, or waiting for the main thread): the async resolve that started
    /// this call waits for it, a synchronous resolve throws.
    @inline(never)
    func cannotWait(for pending: Pending, key: DefinitionKey, owner: DependencyContainer, graph: ResolutionGraph)
        throws -> Never
    {
        if graph.state.pointee.asyncStepDepth == graph.depth {
            throw AsyncStep(
                kind: .wait(pending), slot: self, owner: owner, key: key, forward: nil, autoWires: false)
        }
        throw ResolutionError.requiresAwait(key: key)
    }
}
