internal import PlexusCore

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

extension ResolutionGraph {
    /// Blocks until the graph constructing `pending` publishes it or rolls it back (`.opened`), or until its
    /// value is lent to this graph (`.lent`) because waiting for the publication would deadlock.
    ///
    /// Before waiting, follows who waits for whom. If the owner of `pending` waits, directly or through others,
    /// for this graph, waiting would deadlock. Then a construction on that cycle whose value is ready (its factory
    /// returned and only property hooks are left) is lent to the graph waiting for it, which breaks the cycle; if
    /// none is, only constructors are involved and the cycle throws `circularDependency`. A graph that borrows
    /// finishes together with the lender (`finishTogether`).
    func wait(for pending: Pending, requested: DefinitionKey, slot: AnyObject) throws -> ConstructionSignal.Outcome {
        if let outcome = try prepareWait(for: pending, requested: requested, slot: slot) { return outcome }
        let outcome = pending.signal.wait(as: id, announcing: EngineTestHooks.waitObserver(for: requested))
        endWait()
        return outcome
    }

    /// Suspends until the graph constructing `pending` publishes it or rolls it back, or lends its value to this
    /// graph: `wait(for:requested:slot:)` for a task's graph (Concurrency/), which must not block its thread.
    func waitAsync(for pending: Pending, requested: DefinitionKey, slot: AnyObject) async throws
        -> ConstructionSignal.Outcome
    {
        if let outcome = try prepareWait(for: pending, requested: requested, slot: slot) { return outcome }
        let outcome = await pending.signal.waitAsync(as: id, announcing: EngineTestHooks.waitObserver(for: requested))
        endWait()
        return outcome
    }

    /// Records that this graph uses the value of `pending`, lent to it, before it is published: the graph then
    /// publishes nothing and its outermost resolve does not return before `pending` is published.
    func borrow(_ pending: Pending) {
        state.borrowed.append(pending)
    }

    /// Whether this graph uses a value lent to it (`borrow`).
    var hasBorrowed: Bool { !state.borrowed.isEmpty }

    /// Records that this graph is about to wait for `pending`, unless waiting would deadlock: then returns `.lent`
    /// when a value on the cycle was lent to this graph, or throws `circularDependency`. `nil`: wait, then call
    /// `endWait`.
    private func prepareWait(for pending: Pending, requested: DefinitionKey, slot: AnyObject) throws
        -> ConstructionSignal.Outcome?
    {
        if pending.owner == id {
            // This graph is running the factory and asks for its own result again.
            throw ResolutionError.circularDependency(path: cyclePath(from: ObjectIdentifier(slot)))
        }
        let me = id
        let cycle: [WaitBoard.Edge]? = waitBoard.withLock { board in
            board.waits[me] = .one(pending)
            // Each lend ends one wait on a cycle through this graph; look again until none can be broken.
            while let cycle = board.cycle(from: me, lending: true), let edge = cycle.first(where: board.canLend) {
                edge.pending.signal.lend(to: edge.waiter)
                if edge.waiter == me {
                    board.waits[me] = nil
                    return []
                }
            }
            guard let cycle = board.cycle(from: me) else { return nil }
            board.waits[me] = nil
            return cycle
        }
        if let cycle {
            guard let last = cycle.last else { return .lent }
            let mine = factoryPath(from: last.pending.slot)
            throw ResolutionError.circularDependency(
                path: mine + [requested] + cycle.dropFirst().dropLast().map(\.pending.key) + mine.prefix(1))
        }
        return nil
    }

    /// Forgets the wait `prepareWait` recorded.
    private func endWait() {
        let me = id
        waitBoard.withLock { $0.waits[me] = nil }
    }

    /// Called by the outermost scope of a graph that borrowed, once every hook and callback of its own has run and
    /// before it publishes anything: blocks until every construction it borrowed is published, or throws if one is
    /// rolled back (the error that ended it), so that nothing built with a value that turns out half-built is
    /// published or returned.
    ///
    /// Graphs that borrowed from each other finish together: when every graph this one depends on through loans
    /// (directly or through others) is waiting here too, all their hooks have run and each publishes its own
    /// singletons. A graph that waits here has its own values ready, so one waited for by another graph on a cycle
    /// through this one is lent to it, as `wait` does.
    func finishTogether() throws {
        let me = id
        let borrowed = state.borrowed
        let failed: (pending: Pending, rollback: ConstructionSignal.Rollback)? = waitBoard.withLock { board in
            defer {
                board.waits[me] = nil
                board.finishing.remove(me)
                board.changed()
            }
            board.finishing.insert(me)
            while true {
                var underway: [Pending] = []
                for pending in borrowed {
                    switch pending.signal.ending {
                    case .underway: underway.append(pending)
                    case .published: break
                    case .rolledBack(let rollback): return (pending, rollback)
                    }
                }
                if underway.isEmpty { return nil }
                board.waits[me] = .finishing(underway)
                if board.finishesTogether(me) { return nil }
                while let cycle = board.cycle(from: me, lending: true), let edge = cycle.first(where: board.canLend) {
                    edge.pending.signal.lend(to: edge.waiter)
                }
                board.changed()
                board.wait()
            }
        }
        guard let failed else { return }
        if let error = failed.rollback.error { throw error }
        // Only a construction handed to an async resolve is rolled back without an error to pass on.
        throw ResolutionError.requiresAwait(key: failed.pending.key)
    }

    /// Wakes the graphs waiting in `finishTogether`: a construction lent to one of them has ended.
    static func constructionsChanged() {
        waitBoard.withLock { $0.changed() }
    }
}

/// One outermost resolution: the thread's graph and the number of the session.
struct GraphID: Hashable, Sendable {
    let graph: ObjectIdentifier
    let session: Int
}

/// Which graph waits for which singleton constructions; only touched when threads contend for a singleton.
private let waitBoard = WaitBoard()

/// The record of waits, with the lock and the condition that `finishTogether` blocks on.
final class WaitBoard: @unchecked Sendable {
    // `@unchecked Sendable`: `records` is only touched while `lock` is held.
    private let lock = ConditionLock()
    private let records: Records

    /// What one graph waits for.
    enum Wait {
        /// One construction, until it ends or its value is lent to the graph.
        case one(Pending)
        /// The constructions it borrowed, until each is published (`finishTogether`).
        case finishing([Pending])
    }

    /// A graph waiting for a construction.
    struct Edge {
        let waiter: GraphID
        let pending: Pending
    }

    /// Who waits for what; only touched inside `withLock`.
    final class Records {
        var waits: [GraphID: Wait] = [:]
        /// The graphs in `finishTogether`.
        var finishing: Set<GraphID> = []
        private let lock: ConditionLock
        fileprivate var mustBroadcast = false

        fileprivate init(lock: ConditionLock) {
            self.lock = lock
        }

        /// Marks that the graphs in `finishTogether` must look again; they are woken when the lock is released or
        /// the caller waits.
        func changed() { mustBroadcast = true }

        /// Wakes the graphs in `finishTogether` if `changed` was called.
        fileprivate func broadcastIfChanged() {
            guard mustBroadcast else { return }
            mustBroadcast = false
            lock.broadcast()
        }

        /// Releases the lock until another thread calls `changed`, then holds it again.
        func wait() {
            broadcastIfChanged()
            lock.wait()
        }

        /// The constructions `graph` still waits for.
        private func edges(of graph: GraphID) -> [Pending] {
            switch waits[graph] {
            case .one(let pending):
                return pending.signal.hasReleased(graph) ? [] : [pending]
            case .finishing(let borrowed):
                return borrowed.filter {
                    if case .underway = $0.signal.ending { return true }
                    return false
                }
            case nil:
                return []
            }
        }

        /// Whether the value of the edge's construction can be lent to its waiter to break a cycle: the factory
        /// returned and the waiter waits for that one construction (a graph in `finishTogether` borrowed its own).
        func canLend(_ edge: Edge) -> Bool {
            guard case .one = waits[edge.waiter] else { return false }
            return edge.pending.signal.isValueReady && !edge.pending.signal.hasReleased(edge.waiter)
        }

        /// A cycle of waits through `me`, as the edges from `me` round to the one whose construction `me` owns;
        /// `nil` if none. With `lending`, only a cycle that has an edge `canLend` accepts.
        func cycle(from me: GraphID, lending: Bool = false) -> [Edge]? {
            var path: [Edge] = []
            var onPath: Set<GraphID> = [me]
            // Depth-first over simple paths: a handful of graphs wait at once, and each waits for few constructions.
            func visit(_ graph: GraphID) -> Bool {
                for pending in edges(of: graph) {
                    path.append(Edge(waiter: graph, pending: pending))
                    if pending.owner == me {
                        if !lending || path.contains(where: canLend) { return true }
                    } else if onPath.insert(pending.owner).inserted {
                        if visit(pending.owner) { return true }
                        onPath.remove(pending.owner)
                    }
                    path.removeLast()
                }
                return false
            }
            return visit(me) ? path : nil
        }

        /// Whether every graph `me` depends on through loans still underway, directly or through others, waits in
        /// `finishTogether` with nothing rolled back: then all their hooks have run, and they finish together.
        func finishesTogether(_ me: GraphID) -> Bool {
            var seen: Set<GraphID> = [me]
            var next = [me]
            while let graph = next.popLast() {
                guard case .finishing(let borrowed) = waits[graph] else { return false }
                for pending in borrowed {
                    switch pending.signal.ending {
                    case .published: continue
                    case .rolledBack: return false  // that borrower is about to fail: wait for it
                    case .underway: break
                    }
                    if seen.insert(pending.owner).inserted { next.append(pending.owner) }
                }
            }
            return true
        }
    }

    init() {
        records = Records(lock: lock)
    }

    /// Runs `body` with the lock held; the graphs in `finishTogether` are woken on the way out if it called
    /// `changed`.
    func withLock<R>(_ body: (Records) throws -> R) rethrows -> R {
        try lock.withLock {
            defer { records.broadcastIfChanged() }
            return try body(records)
        }
    }
}
