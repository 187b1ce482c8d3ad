internal import PlexusCore

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
        case construct(Construction)
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
        if case .construct(let construction) = kind, let claim = construction.claim {
            slot.abandon(claim, owner: owner)
        }
    }

    /// Gives up the claim, if any, and returns what a synchronous resolve throws for the definition: for a caller
    /// that cannot hand the step over, which never meets one (only a segment's entry lets its scope hand over).
    func refused() -> ResolutionError {
        rollBack()
        if case .construct = kind, slot.blueprint.isolation == .mainActor { return .requiresMainActor(key: key) }
        return .requiresAwait(key: key)
    }
}

extension Slot {
    /// Called before an `async` or `@MainActor` factory would run in a synchronous resolve. A `@MainActor` factory
    /// on the main thread runs in place; otherwise the claim is given up and the resolve throws. (A segment's scope
    /// hands the definition over before it gets here: `produceHandingOver`.)
    @inline(never)
    func checkIsolation(_ construction: Construction, _ request: SlotRequest) throws {
        if blueprint.isolation == .mainActor, isMainThread { return }
        if let claim = construction.claim { abandon(claim, owner: request.owner) }
        throw blueprint.isolation == .mainActor
            ? ResolutionError.requiresMainActor(key: request.key) : ResolutionError.requiresAwait(key: request.key)
    }

    /// Whether a thread must not block on `pending`, this singleton's construction by another graph: the factory of an
    /// `async` or `@MainActor` definition may be suspended, or waiting for the main thread, and an async resolve may
    /// keep a construction open across an `await`. A synchronous resolve throws `requiresAwait` instead
    /// (`wait(for:_:)`).
    func mustNotBlock(on pending: Pending) -> Bool {
        blueprint.isolation != .none || pending.signal.isHeldAcrossAwait
    }

    /// `produce(_:_:into:)` in the scope at the top of a segment of an async resolve (`ResolutionGraph.isHandingOver`):
    /// an `async` factory, a `@MainActor` one off the main thread, or a construction no thread may block on
    /// (`mustNotBlock(on:)`) comes back as the hand-over to that resolve, which runs the factory or waits without
    /// blocking; anything else is produced as usual. Out of line, and taken only in that scope: the general path of
    /// every other resolve pays one comparison for it.
    @inline(never)
    func produceHandingOver(_ first: Acquisition, _ request: SlotRequest, into result: InstanceStorage?)
        throws -> DependencyContainer.Delivery
    {
        var acquisition = first
        while true {
            switch acquisition {
            case .construct(let construction) where needsAwait(request):
                var autoWires = false
                if case .autoWire = request.arguments { autoWires = true }
                return .handOver(
                    AsyncHandOver(
                        .construct(construction), slot: self, owner: request.owner, key: request.key,
                        forward: request.forward, autoWires: autoWires))
            case .wait(let pending) where mustNotBlock(on: pending):
                return .handOver(
                    AsyncHandOver(
                        .wait(pending), slot: self, owner: request.owner, key: request.key, forward: nil,
                        autoWires: false))
            case .wait(let pending):
                // A construction a thread may block on: waited for here, so that what is acquired next (perhaps a
                // construction held across an `await` meanwhile) is handed over too.
                if let value = try wait(for: pending, request) {
                    let typed = request.forward == nil && blueprint.type == request.key.type ? result : nil
                    guard let instance = deliver(value, into: typed) else { return .typed(blueprint.ops) }
                    return .value(instance)
                }
                acquisition = request.owner.registry.withLockKeepingReaders { _ in
                    acquire(request.key, graph: request.graph)
                }
            case .construct, .cached, .cachedObject:
                guard let instance = try produce(acquisition, request, into: result) else {
                    return .typed(blueprint.ops)
                }
                return .value(instance)
            }
        }
    }

    /// Whether this definition's factory cannot run in `request`'s synchronous resolve: an `async` one, or a
    /// `@MainActor` one off the main thread, unless a `.shared` instance of it is in the graph already.
    private func needsAwait(_ request: SlotRequest) -> Bool {
        switch blueprint.isolation {
        case .none: return false
        case .mainActor where isMainThread: return false
        case .async, .mainActor:
            return !(blueprint.scope == .shared && request.graph.sharedInstance(of: definition) != nil)
        }
    }
}
