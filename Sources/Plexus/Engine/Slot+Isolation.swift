/// What the synchronous resolve at the top of a segment of an async resolve hands back, as its delivery
/// (`Delivery.handOver`), when the definition it reached needs `await`: the factory to run, or the construction to wait
/// for. Only made in the scope a segment's entry opened (`ResolutionGraph.handingOver`); the entry returns it to the
/// async resolve that called it, on the same task.
///
/// A class: a `Delivery` carries one reference for it, so that the enum every frame of the general path returns stays
/// the size of its other cases.
@usableFromInline
final class AsyncHandOver {
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

    init(_ kind: Kind, slot: Slot, owner: DependencyContainer, key: DefinitionKey, forward: Forward?, autoWires: Bool) {
        self.kind = kind
        self.slot = slot
        self.owner = owner
        self.key = key
        self.forward = forward
        self.autoWires = autoWires
    }

    /// Gives up the claim, if any (the async resolve starts over in a graph of its own).
    func rollBack() {
        if case .create(let construction) = kind, let claim = construction.claim { slot.abandon(claim, owner: owner) }
    }

    /// Gives up the claim, if any, and returns what a synchronous resolve throws for the definition: for a caller
    /// that cannot hand the step over, which never meets one (only a segment's entry lets its scope hand over).
    func refused() -> ResolutionError {
        rollBack()
        if case .create = kind, slot.blueprint.isolation == .mainActor { return .requiresMainActor(key: key) }
        return .requiresAwait(key: key)
    }
}

extension Slot {
    /// Called before an `async` or `@MainActor` factory would run in a synchronous resolve. A `@MainActor` factory
    /// on the main thread runs in place (`nil`); at the top of a segment of an async resolve, the hand-over to that
    /// resolve, which runs the factory; anywhere else the claim is given up and the resolve throws.
    @inline(never)
    func checkIsolation(_ construction: Construction, _ request: SlotRequest) throws -> AsyncHandOver? {
        if blueprint.isolation == .mainActor, isMainThread { return nil }
        if request.graph.isHandingOver {
            var autoWires = false
            if case .autoWire = request.arguments { autoWires = true }
            return AsyncHandOver(
                .create(construction), slot: self, owner: request.owner, key: request.key, forward: request.forward,
                autoWires: autoWires)
        }
        if let claim = construction.claim { abandon(claim, owner: request.owner) }
        throw blueprint.isolation == .mainActor
            ? ResolutionError.requiresMainActor(key: request.key) : ResolutionError.requiresAwait(key: request.key)
    }

    /// Whether a thread must not block on `pending`, this singleton's construction by another graph: the factory of an
    /// `async` or `@MainActor` definition may be suspended, or waiting for the main thread, and an async resolve may
    /// keep a construction open across an `await`.
    func mustNotBlock(on pending: Pending) -> Bool {
        blueprint.isolation != .none || pending.signal.isHeldAcrossAwait
    }

    /// Called instead of blocking on a construction a thread must not block on (`mustNotBlock(on:)`): at the top of a
    /// segment of an async resolve, the hand-over to that resolve, which waits for it without blocking; anywhere else
    /// the resolve throws.
    @inline(never)
    func cannotWait(for pending: Pending, _ request: SlotRequest) throws -> AsyncHandOver {
        guard request.graph.isHandingOver else { throw ResolutionError.requiresAwait(key: request.key) }
        return AsyncHandOver(
            .wait(pending), slot: self, owner: request.owner, key: request.key, forward: nil, autoWires: false)
    }
}
