extension ResolutionGraph {
    // MARK: Work created by a resolve call

    /// Whether property hooks are waiting to run.
    var hasQueuedHooks: Bool { !state.queue.isEmpty }

    /// Queues the property work of a new instance in the innermost scope.
    ///
    /// `consuming`: the entry moves into the queue (as a borrowed argument it was copied there, eight references
    /// retained, and the caller's temporary released).
    func `defer`(_ hooks: consuming DeferredHooks) {
        state.queue.append(hooks)
    }

    /// Queues `didResolveDependencies` of a `Resolvable` whose hooks ran.
    func didResolve(_ resolvable: Resolvable, context: DependencyContainer.Context) {
        state.callbacks.append(Callback(resolvable: resolvable, context: context))
    }

    /// Records that the singleton under construction by `pending`, one of this graph's, was handed out again before
    /// the scope that owns it ended (its hooks may not have run yet): what the scopes opened since build may hold
    /// it, so they leave their singletons to that scope, to be published with it or rolled back with it. Called
    /// under the owner's lock, by this graph's thread.
    func usesUnfinished(_ pending: Pending) {
        guard let index = state.commits.lastIndex(where: { $0.pending === pending }) else { return }
        state.earliestUnfinishedUse = min(state.earliestUnfinishedUse, index)
    }

    /// Records a singleton this graph constructs, to be published or rolled back by the scope that owns it.
    func willCommit(_ pending: Pending, slot: Slot, owner: DependencyContainer) {
        state.commits.append(Commit(pending: pending, slot: slot, owner: owner))
    }

    // MARK: Scopes

    /// Opens the scope of one `resolve` call. It is full when it is the outermost one or when hooks or callbacks,
    /// not a factory, started it.
    @inline(never)
    func openScope() {
        let isFull = state.depth == 0 || state.frames.last?.isFactory == false
        state.scopes.append(
            ScopeMark(
                queue: state.queue.count, callbacks: state.callbacks.count,
                commits: state.commits.count, shared: state.shared.count, isFull: isFull))
        state.depth += 1
    }

    /// The scope of a fast-path resolve, opened by `openLightScope`: the mark of its `resolve` call, recorded in the
    /// scope list only if the factory leaves work behind. It sits in the stack frame of every nested fast-path resolve,
    /// so it is three words, passed in registers: its counts are 32-bit (more entries than that in one graph would
    /// take hundreds of gigabytes), two to a word.
    struct LightScope {
        private let queueAndCallbacks: UInt64
        private let commitsAndShared: UInt64
        /// The number of recorded scopes when it opened, shifted left by one; the low bit is `isFull`.
        private let scopesAndFull: UInt64

        init(queue: Int, callbacks: Int, commits: Int, shared: Int, scopes: Int, isFull: Bool) {
            queueAndCallbacks = Self.pair(queue, callbacks)
            commitsAndShared = Self.pair(commits, shared)
            scopesAndFull = UInt64(truncatingIfNeeded: scopes) << 1 | (isFull ? 1 : 0)
        }

        private static func pair(_ low: Int, _ high: Int) -> UInt64 {
            UInt64(UInt32(truncatingIfNeeded: low)) | UInt64(UInt32(truncatingIfNeeded: high)) << 32
        }

        var queue: Int { Int(queueAndCallbacks & 0xFFFF_FFFF) }
        var callbacks: Int { Int(queueAndCallbacks >> 32) }
        var commits: Int { Int(commitsAndShared & 0xFFFF_FFFF) }
        var shared: Int { Int(commitsAndShared >> 32) }
        var scopes: Int { Int(truncatingIfNeeded: scopesAndFull >> 1) }
        var isFull: Bool { scopesAndFull & 1 != 0 }

        var mark: ScopeMark {
            ScopeMark(queue: queue, callbacks: callbacks, commits: commits, shared: shared, isFull: isFull)
        }
    }

    /// Opens the scope of a fast-path resolve (a factory whose instances need no hooks) without recording its mark:
    /// the mark is returned instead, and recorded only if the factory leaves work behind (`closeLightScope`,
    /// `abandonLightScope`). A leaf factory, which resolves nothing, so never touches the scope list.
    @inline(__always)
    func openLightScope() -> LightScope {
        let isFull = state.depth == 0 || state.frames.last?.isFactory == false
        let scope = LightScope(
            queue: state.queue.count, callbacks: state.callbacks.count,
            commits: state.commits.count, shared: state.shared.count,
            scopes: state.scopes.count, isFull: isFull)
        state.depth += 1
        return scope
    }

    /// `closeScope` for a scope opened by `openLightScope`. When the factory left nothing in the graph to run or
    /// publish (no hooks, callbacks or singletons) and no shared instance that an outermost scope would release,
    /// closing has nothing to do: only the depth goes back. Otherwise the mark is recorded and the scope closes as
    /// any other.
    @inline(__always)
    func closeLightScope(_ light: LightScope) throws {
        if state.queue.count == light.queue, state.callbacks.count == light.callbacks,
            state.commits.count == light.commits, state.shared.count == light.shared || !light.isFull,
            state.borrowed.isEmpty
        {
            state.depth -= 1
            return
        }
        try closeScope(recording: light)
    }

    /// Whether work due on an instance made in the scope `light` would run first when it closes: the scope runs its
    /// own queue (it is full) and nothing is queued in it yet. That work may then run before the scope closes, in
    /// the order closing would run it.
    func runsNextWork(of light: LightScope) -> Bool {
        light.isFull && state.queue.count == light.queue && state.callbacks.count == light.callbacks
    }

    /// Records the mark of `light` as the innermost scope's and closes it. Out of line: the array growth stays off the stack
    /// frame of the fast path's nested resolves.
    @inline(never)
    private func closeScope(recording light: LightScope) throws {
        state.scopes.append(light.mark)
        try closeScope()
    }

    /// `abandonScope` for a scope opened by `openLightScope`, whether or not its mark was recorded since.
    @inline(never)
    func abandonLightScope(_ light: LightScope, after error: any Error) {
        if state.scopes.count == light.scopes { state.scopes.append(light.mark) }
        abandonScope(after: error)
    }

    /// Ends the innermost scope after its body succeeded.
    ///
    /// A full scope runs its queued hooks in creation order (hooks may queue more; a resolve they start is a full
    /// scope of its own and runs its hooks before returning). The outermost scope then calls `didResolveDependencies`
    /// in reverse creation order (a nested full scope leaves its callbacks to it: they run once every hook of the
    /// graph has run). A scope publishes its singletons once nothing it created waits for hooks or callbacks, and
    /// otherwise hands its work to its parent by leaving it in place. A graph that borrowed a value from another
    /// graph publishes only in its outermost scope, once the lenders finish too (`finishTogether`). If a hook,
    /// callback or the lender throws, the scope is still open: the caller abandons it.
    @inline(never)
    func closeScope() throws {
        guard let mark = state.scopes.last else { return }
        if mark.isFull {
            var index = mark.queue
            while index < state.queue.count {
                let hooks = state.queue[index]
                index += 1
                try run(hooks: hooks.context) { try hooks.run(in: self) }
            }
            retireQueue(from: mark.queue)
            if state.depth == 1 {
                // `didResolveDependencies` runs once every hook of the graph has run, so only the outermost scope
                // calls it; a callback may resolve again and queue more callbacks, which this loop picks up.
                while state.callbacks.count > mark.callbacks, let callback = state.callbacks.popLast() {
                    run(hooks: callback.context) { callback.resolvable.didResolveDependencies() }
                    state.leftovers.append(callback.resolvable)
                }
            }
            if state.callbacks.count == mark.callbacks, try mayPublish(from: mark) {
                end(commitsFrom: mark.commits, publishing: true)
            }
        } else if state.queue.count == mark.queue, state.callbacks.count == mark.callbacks,
            try mayPublish(from: mark)
        {
            end(commitsFrom: mark.commits, publishing: true)
        }
        popScope()
    }

    /// Ends the innermost scope after its body, a hook or a callback threw `error`: nothing it owned runs or is
    /// published. Its singletons are rolled back (so the next resolve constructs them again); a graph that borrowed
    /// one of them publishes nothing before it ends, and then throws `error` too. Its shared instances leave the
    /// graph. `nil` for a scope that handed its definition over to an async resolve (`Delivery.handOver`): no failure
    /// to pass on, the construction moves to that resolve.
    @inline(never)
    func abandonScope(after error: (any Error)?) {
        guard let mark = state.scopes.last else { return }
        retireQueue(from: mark.queue)
        while state.callbacks.count > mark.callbacks, let callback = state.callbacks.popLast() {
            state.leftovers.append(callback.resolvable)
        }
        end(commitsFrom: mark.commits, rollingBackAfter: error)
        if mark.commits <= state.earliestUnfinishedUse { state.earliestUnfinishedUse = Int.max }
        while state.shared.count > mark.shared {
            let entry = state.shared.removeLast()
            if !state.sharedIndex.isEmpty {
                state.sharedIndex[entry.id] = nil
            }
            state.retiredShared.append(entry)
        }
        if state.depth == 1 {
            state.frames.removeAll()
            state.deepSlots.removeAll()
        }
        popScope()
    }

    /// Whether the innermost scope, opened at `mark`, may publish its finished singletons now: not while a singleton
    /// of an enclosing scope that they may hold is unfinished (`usesUnfinished`), nor before the outermost scope when
    /// the graph borrowed a value; the outermost scope does, once the lenders finished (which it waits for here).
    private func mayPublish(from mark: ScopeMark) throws -> Bool {
        if mark.commits > state.earliestUnfinishedUse { return false }
        state.earliestUnfinishedUse = Int.max
        guard hasBorrowed else { return true }
        guard state.depth == 1 else { return false }
        try finishTogether()
        return true
    }

    private func popScope() {
        state.scopes.removeLast()
        state.depth -= 1
        if state.depth == 0, !state.borrowed.isEmpty {
            state.leftovers.append(state.borrowed)
            state.borrowed = []
        }
        if state.depth == 0, !state.shared.isEmpty {
            // The outermost resolve ended: its shared instances go, moved whole (usually into an empty buffer).
            state.retireShared()
        }
    }

    /// Publishes the singletons recorded from `start` on before their scope ends: an async resolve (Concurrency/) does
    /// this when a synchronous part of its graph returns, so that no thread ever blocks on a singleton whose
    /// publication waits for an `await`. Their hooks may still be queued in the async resolve's scope.
    func publishCommits(from start: Int) {
        end(commitsFrom: start, publishing: true)
    }

    /// Rolls back the singletons recorded from `start` on after `error`, and wakes the graphs waiting for them; a
    /// graph they were lent to throws `error` too (none after a hand-over: they look again).
    private func end(commitsFrom start: Int, rollingBackAfter error: (any Error)?) {
        end(commitsFrom: start, publishing: false, rollback: .init(error: error))
    }

    /// Publishes (or rolls back) the singletons recorded from `start` on, and wakes the graphs waiting for them.
    private func end(commitsFrom start: Int, publishing: Bool, rollback: ConstructionSignal.Rollback? = nil) {
        guard state.commits.count > start else { return }
        for commit in state.commits[start...] {
            let dropped = commit.owner.registry.withLock { _ -> InstanceBox? in
                publishing ? commit.slot.commit(commit.pending) : commit.slot.rollBack(commit.pending)
            }
            commit.pending.signal.open(rollback: publishing ? nil : rollback)
            if let dropped { state.leftovers.append(dropped) }
            state.leftovers.append(commit.owner)
        }
        state.commits.removeSubrange(start...)
    }

    /// Drops the hooks queued from `start` on, moving their entries to `retiredHooks` (so no `deinit` runs yet) and
    /// keeping the queue's capacity for the next graph.
    private func retireQueue(from start: Int) {
        guard state.queue.count > start else { return }
        state.retireQueue(from: start)
    }

    /// Releases what the finished graph held (shared instances, the instances its hooks ran on, weak singletons
    /// held until the end). Called once the outermost resolve has ended, because releasing runs `deinit`s, which are
    /// user code that may resolve again: a graph started by a `deinit` leaves its own leftovers, released by the
    /// loop here.
    @inline(never)
    func releaseLeftovers() {
        guard hasLeftovers, !state.isReleasing else { return }
        state.isReleasing = true
        defer { state.isReleasing = false }
        // Released outside every access to the state: the `deinit`s that run may resolve, and so touch it.
        var buffers = ReleasingBuffers(leftovers: [], hooks: [], shared: [])
        state.exchangeReleasing(with: &buffers)
        while hasLeftovers {
            state.exchangeRetired(with: &buffers)
            buffers.empty()
        }
        state.exchangeReleasing(with: &buffers)
    }

    private var hasLeftovers: Bool {
        !state.leftovers.isEmpty || !state.retiredHooks.isEmpty
            || !state.retiredShared.isEmpty
    }
}

extension ResolutionGraph {
    // MARK: Shared instances

    /// The graph's instance of the `.shared` `definition` (a slot's `definition`), if it has one.
    func sharedInstance(of definition: AnyObject) -> Any? {
        sharedIndex(of: definition).map { state.shared[$0].instance }
    }

    /// Calls `body` with the graph's instance of the `.shared` `definition` (a slot's `definition`), read in place (no
    /// copy of the `Any`: `graph` in `Benchmarks/profile` counts the same existential copies as through a buffer
    /// pointer), if it has one; `nil` if not.
    func withSharedInstance<R>(of definition: AnyObject, _ body: (Any) throws -> R) rethrows -> R? {
        guard let index = sharedIndex(of: definition) else { return nil }
        return try body(state.shared[index].instance)
    }

    /// Where the shared instance of `definition` is in `shared`: a scan of a few entries, or the index once there are more.
    private func sharedIndex(of definition: AnyObject) -> Int? {
        guard !state.shared.isEmpty else { return nil }
        let id = ObjectIdentifier(definition)
        if state.sharedIndex.isEmpty {
            var index = 0
            while index < state.shared.count, state.shared[index].id != id { index += 1 }
            return index < state.shared.count ? index : nil
        }
        return state.sharedIndex[id]
    }

    /// Keeps `instance` as the graph's instance of the `.shared` `definition` (a slot's `definition`).
    func storeShared(_ instance: consuming Any, of definition: AnyObject) {
        state.shared.append(SharedEntry(definition: definition, instance: instance))
        let count = state.shared.count
        if count > Self.shallowDepth {
            if state.sharedIndex.isEmpty {
                for (index, entry) in state.shared.enumerated() {
                    state.sharedIndex[entry.id] = index
                }
            } else {
                state.sharedIndex[ObjectIdentifier(definition)] = count - 1
            }
        }
    }
}

extension ResolutionGraph.State {
    /// Moves the outermost resolve's shared instances to `retiredShared` (whole, into an empty buffer when it can) and
    /// empties their index, keeping capacities.
    mutating func retireShared() {
        if retiredShared.isEmpty {
            swap(&shared, &retiredShared)
        } else {
            retiredShared.append(contentsOf: shared)
            shared.removeAll(keepingCapacity: true)
        }
        if !sharedIndex.isEmpty { sharedIndex.removeAll(keepingCapacity: true) }
    }

    /// Moves the hooks queued from `start` on to `retiredHooks` (whole when they are the entire queue and nothing is
    /// retired yet).
    mutating func retireQueue(from start: Int) {
        if start == 0, retiredHooks.isEmpty {
            swap(&queue, &retiredHooks)
            return
        }
        while queue.count > start {
            retiredHooks.append(queue.removeLast())
        }
    }

    /// Trades the releasing buffers (empty, with the capacity earlier releases left them) for `buffers`: swaps only,
    /// so no array is retained or released.
    mutating func exchangeReleasing(with buffers: inout ResolutionGraph.ReleasingBuffers) {
        swap(&releasing, &buffers.leftovers)
        swap(&releasingHooks, &buffers.hooks)
        swap(&releasingShared, &buffers.shared)
    }

    /// Trades what is retired for the empty `buffers`, so that what was retired is released when they are emptied.
    mutating func exchangeRetired(with buffers: inout ResolutionGraph.ReleasingBuffers) {
        swap(&leftovers, &buffers.leftovers)
        swap(&retiredHooks, &buffers.hooks)
        swap(&retiredShared, &buffers.shared)
    }
}

extension ResolutionGraph {
    /// What a graph releases at its end, out of its state while it is released (`releaseLeftovers`).
    struct ReleasingBuffers {
        var leftovers: [Any]
        var hooks: [DeferredHooks]
        var shared: [SharedEntry]

        /// Releases every element, keeping the capacity; runs the `deinit`s of what was held last here.
        mutating func empty() {
            leftovers.removeAll(keepingCapacity: true)
            hooks.removeAll(keepingCapacity: true)
            shared.removeAll(keepingCapacity: true)
        }
    }
}
