extension ResolutionGraph {
    /// Blocks until the graph constructing `pending` publishes it or rolls it back (`.opened`), or until its
    /// value is lent to this graph (`.lent`) because waiting for the publication would deadlock.
    ///
    /// Before waiting, follows who waits for whom. If the owner of `pending` waits, directly or through others,
    /// for this graph, waiting would deadlock. Then, if one of the constructions on that cycle has its value ready
    /// (its factory returned and only property hooks are left), that value is lent to the graph waiting for it on
    /// the cycle, which breaks the cycle (that graph may then see the instance before its hooks have run); if none
    /// has, only constructors are involved and the cycle throws `circularDependency`.
    func wait(for pending: Pending, requested: DefinitionKey, slot: AnyObject) throws -> ConstructionSignal.Outcome {
        if let outcome = try prepareWait(for: pending, requested: requested, slot: slot) { return outcome }
        let outcome = pending.signal.wait(as: id)
        endWait()
        return outcome
    }

    /// Suspends until the graph constructing `pending` publishes it or rolls it back, or lends its value to this
    /// graph: `wait(for:requested:slot:)` for a task's graph (Concurrency/), which must not block its thread.
    func waitAsync(for pending: Pending, requested: DefinitionKey, slot: AnyObject) async throws
        -> ConstructionSignal.Outcome
    {
        if let outcome = try prepareWait(for: pending, requested: requested, slot: slot) { return outcome }
        let outcome = await pending.signal.waitAsync(as: id)
        endWait()
        return outcome
    }

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
        let cycle: [Pending]? = waits.withLock { waits in
            var chain = [pending]
            var owner = pending.owner
            // Each graph waits for one construction at a time, so the walk is a path; it ends at a graph that does
            // not wait, at this graph (a cycle to break), or at a graph seen before (a cycle among others, which
            // the last of them to wait has broken already). A wait that was released (the construction opened, or
            // its value lent to the waiter) has ended; its waiter just has not removed the record yet.
            var seen: Set<GraphID> = [me]
            while let next = waits[owner], !next.signal.hasReleased(owner), seen.insert(owner).inserted {
                chain.append(next)
                if next.owner == me {
                    guard let index = chain.firstIndex(where: { $0.signal.isValueReady }) else { return chain }
                    // This graph waits for chain[0]; the owner of chain[i - 1] waits for chain[i].
                    if index == chain.startIndex {
                        // This graph borrows the value itself; recorded so that its owner cannot roll it back.
                        chain[index].signal.lend(to: me)
                        return []
                    }
                    chain[index].signal.lend(to: chain[index - 1].owner)
                    break
                }
                owner = next.owner
            }
            waits[me] = pending
            return nil
        }
        if let cycle {
            guard let last = cycle.last else { return .lent }
            let mine = factoryPath(from: last.slot)
            throw ResolutionError.circularDependency(
                path: mine + [requested] + cycle.dropFirst().dropLast().map(\.key) + mine.prefix(1))
        }
        return nil
    }

    /// Forgets the wait `prepareWait` recorded.
    private func endWait() {
        let me = id
        waits.withLock { $0[me] = nil }
    }
}

/// One outermost resolution: the thread's graph and the number of the session.
struct GraphID: Hashable, Sendable {
    let graph: ObjectIdentifier
    let session: Int
}

/// Which graph waits for which singleton construction; only touched when threads contend for a singleton.
private let waits = Protected<[GraphID: Pending]>([:])
