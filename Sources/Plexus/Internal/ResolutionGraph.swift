#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The resolution in progress on one thread: the outermost `resolve` call and everything it resolves, in any
/// container, until it returns.
///
/// One graph object lives per thread (in thread-local storage) and is reused by every outermost resolve on that
/// thread, so its arrays keep their capacity and an ordinary resolve allocates nothing here. Only its own thread
/// touches it; other threads only ever see its `id`.
final class ResolutionGraph {
    /// A factory or hook running on this thread: the context users read through `container.context`.
    struct Frame {
        /// The slot whose factory runs, for cycle detection; `nil` for hooks.
        let slot: ObjectIdentifier?
        let context: DependencyContainer.Context
    }

    private struct SharedEntry {
        let slot: AnyObject
        let instance: Any
    }

    private struct Commit {
        let pending: Pending
        let slot: Slot
        let owner: DependencyContainer
    }

    /// Everything the graph tracks. It sits behind a pointer because only this graph's thread ever touches it, so
    /// the runtime's dynamic exclusivity checks on class properties would be pure cost on every resolve.
    private struct State {
        /// Nesting of `resolve` calls on this thread; 0 when no resolution is in progress.
        var depth = 0
        var frames: [Frame] = []
        /// Set by auto-injection just before it resolves a property, consumed by the next frame.
        var injectedInProperty: String?
        var shared: [ObjectIdentifier: SharedEntry] = [:]
        var queue: [DeferredHooks] = []
        var resolvables: [Resolvable] = []
        var commits: [Commit] = []
    }

    private let state: UnsafeMutablePointer<State>

    private init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Identifies this graph to other threads (which graph constructs a singleton, who waits for whom).
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Nesting of `resolve` calls on this thread; 0 when no resolution is in progress.
    var depth: Int {
        get { state.pointee.depth }
        set { state.pointee.depth = newValue }
    }

    /// Set by auto-injection just before it resolves a property, consumed by the next frame.
    var injectedInProperty: String? {
        get { state.pointee.injectedInProperty }
        set { state.pointee.injectedInProperty = newValue }
    }

    /// The graph of the calling thread.
    static var current: ResolutionGraph {
        if let pointer = pthread_getspecific(graphKey) {
            return Unmanaged<ResolutionGraph>.fromOpaque(pointer).takeUnretainedValue()
        }
        let graph = ResolutionGraph()
        pthread_setspecific(graphKey, Unmanaged.passRetained(graph).toOpaque())
        return graph
    }

    /// The graph of the calling thread if a resolution is in progress on it.
    static var active: ResolutionGraph? {
        guard let pointer = pthread_getspecific(graphKey) else { return nil }
        let graph = Unmanaged<ResolutionGraph>.fromOpaque(pointer).takeUnretainedValue()
        return graph.depth > 0 ? graph : nil
    }

    // MARK: Frames and cycles

    /// The context of the innermost factory or hook running on this thread.
    var context: DependencyContainer.Context? { state.pointee.frames.last?.context }

    /// Records that the factory of `slot` starts; throws if it is already running in this graph (a cycle that
    /// only constructors could close).
    func enterFactory(of slot: AnyObject, requested: DefinitionKey) throws {
        let id = ObjectIdentifier(slot)
        if state.pointee.frames.contains(where: { $0.slot == id }) {
            throw ResolutionError.circularDependency(path: cyclePath(from: id))
        }
        let property = state.pointee.injectedInProperty
        if property != nil { state.pointee.injectedInProperty = nil }
        let context = DependencyContainer.Context(
            key: requested, injectedInType: state.pointee.frames.last?.context.resolvingType,
            injectedInProperty: property)
        state.pointee.frames.append(Frame(slot: id, context: context))
    }

    func leaveFactory() {
        state.pointee.frames.removeLast()
    }

    /// The keys of the factories running in this graph, outermost first, from the one of `slot` on.
    func factoryPath(from id: ObjectIdentifier) -> [DefinitionKey] {
        let factories = state.pointee.frames.filter { $0.slot != nil }
        let start = factories.firstIndex { $0.slot == id } ?? factories.startIndex
        return factories[start...].map(\.context.key)
    }

    /// The cycle closed by entering the factory of `slot` again: its running factories from the first entry of
    /// `slot` on, then that entry again, so the path reads `A -> B -> A` even when it was re-entered through a
    /// forwarded type or an `Optional`.
    func cyclePath(from id: ObjectIdentifier) -> [DefinitionKey] {
        let path = factoryPath(from: id)
        return path + path.prefix(1)
    }

    // MARK: Shared instances

    func sharedInstance(of slot: AnyObject) -> Any? {
        state.pointee.shared.isEmpty ? nil : state.pointee.shared[ObjectIdentifier(slot)]?.instance
    }

    func storeShared(_ instance: Any, of slot: AnyObject) {
        state.pointee.shared[ObjectIdentifier(slot)] = SharedEntry(slot: slot, instance: instance)
    }

    // MARK: Deferred hooks

    func `defer`(_ hooks: DeferredHooks) {
        state.pointee.queue.append(hooks)
    }

    func didResolve(_ resolvable: Resolvable) {
        state.pointee.resolvables.append(resolvable)
    }

    func willCommit(_ pending: Pending, slot: Slot, owner: DependencyContainer) {
        state.pointee.commits.append(Commit(pending: pending, slot: slot, owner: owner))
    }

    /// Ends a successful outermost resolve: runs the queued hooks in creation order (hooks may queue more),
    /// then `didResolveDependencies` in reverse creation order, then publishes the singletons made.
    func finish() throws {
        guard !state.pointee.queue.isEmpty || !state.pointee.commits.isEmpty || !state.pointee.shared.isEmpty
        else { return }
        var index = 0
        while index < state.pointee.queue.count {
            let hooks = state.pointee.queue[index]
            index += 1
            state.pointee.frames.append(Frame(slot: nil, context: hooks.context))
            defer { state.pointee.frames.removeLast() }
            try hooks.run(in: self)
        }
        state.pointee.queue.removeAll(keepingCapacity: true)
        while let resolvable = state.pointee.resolvables.popLast() {
            resolvable.didResolveDependencies()
        }
        end(committing: true)
    }

    /// Ends a failed outermost resolve: singletons under construction are rolled back, so the next resolve
    /// constructs them again, and nothing made in this graph is kept.
    func abort() {
        state.pointee.frames.removeAll(keepingCapacity: true)
        state.pointee.queue.removeAll(keepingCapacity: true)
        state.pointee.resolvables.removeAll(keepingCapacity: true)
        state.pointee.injectedInProperty = nil
        end(committing: false)
    }

    private func end(committing: Bool) {
        if !state.pointee.commits.isEmpty {
            let finished = state.pointee.commits
            state.pointee.commits.removeAll(keepingCapacity: true)
            for commit in finished {
                let dropped = commit.owner.registry.withLock { _ -> InstanceBox? in
                    guard committing else { return commit.slot.rollBack(commit.pending) }
                    commit.slot.commit(commit.pending)
                    return nil
                }
                commit.pending.latch.open()
                withExtendedLifetime(dropped) {}
            }
        }
        if !state.pointee.shared.isEmpty { state.pointee.shared.removeAll(keepingCapacity: true) }
    }

    // MARK: Waiting for other threads

    /// Blocks until the graph constructing `pending` commits or rolls it back. Returns the cycle path instead of
    /// waiting if waiting would deadlock (the owner waits, directly or through others, for this graph).
    func wait(for pending: Pending, requested: DefinitionKey, slot: AnyObject) throws -> [DefinitionKey]? {
        if pending.owner == id {
            // This graph is running the factory and asks for its own result again.
            throw ResolutionError.circularDependency(path: cyclePath(from: ObjectIdentifier(slot)))
        }
        let me = id
        let cycle: (start: ObjectIdentifier, chain: [DefinitionKey])? = waits.withLock { waits in
            var chain = [requested]
            var owner = pending.owner
            // An opened latch is a wait that has ended; its waiter just has not removed the edge yet.
            while let next = waits[owner], !next.latch.isOpened {
                chain.append(next.key)
                if next.owner == me { return (next.slot, chain) }
                owner = next.owner
            }
            waits[me] = pending
            return nil
        }
        if let cycle {
            let mine = factoryPath(from: cycle.start)
            // The chain ends with the key this graph's own construction was claimed under; end with the key its
            // factory runs under instead, so the path closes on the key it starts with.
            return mine + cycle.chain.dropLast() + mine.prefix(1)
        }
        pending.latch.wait()
        waits.withLock { $0[me] = nil }
        return nil
    }
}

/// Which graph waits for which singleton construction; only touched when threads contend for a singleton.
private let waits = Protected<[ObjectIdentifier: Pending]>([:])

/// The thread-local slot holding each thread's graph; the graph is released when its thread exits.
private let graphKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        #if canImport(Darwin)
            Unmanaged<ResolutionGraph>.fromOpaque(pointer).release()
        #else
            if let pointer { Unmanaged<ResolutionGraph>.fromOpaque(pointer).release() }
        #endif
    }
    return key
}()
