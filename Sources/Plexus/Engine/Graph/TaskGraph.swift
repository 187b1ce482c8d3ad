internal import PlexusCore

/// The resolution graph of the async resolve in progress on a task: found through a task-local
/// value, so that one resolution's scopes, `.shared` instances and cycle detection survive suspension points.
///
/// Child tasks inherit task-local values, but a graph must only ever be touched by one task, one step at a time:
/// the binding remembers its task, and another task (a child started inside a factory) starts a graph of its own.
// `@unchecked Sendable`: `graph` is only used by the task recorded in `task` (checked by `graphOfCurrentTask`),
// which runs one step at a time; other tasks that inherit the binding never touch the graph.
final class TaskGraph: @unchecked Sendable {
    let graph: ResolutionGraph
    let task: Int

    private init(graph: ResolutionGraph, task: Int) {
        self.graph = graph
        self.task = task
    }

    @TaskLocal private static var binding: TaskGraph?

    /// The graph of the async resolve in progress on the current task, if any. While no task graph is alive in the
    /// process (the common case: synchronous definitions), the task-local value is not looked up.
    static func graphOfCurrentTask() -> ResolutionGraph? {
        guard LiveTaskGraphs.any, let binding else { return nil }
        return binding.task == currentTask() ? binding.graph : nil
    }

    /// Runs `body` with a new graph bound to the current task, and releases what the graph held once it ended.
    static func withNewGraph<R>(_ body: (ResolutionGraph) async throws -> R) async throws -> R {
        let graph = ResolutionGraph(forTask: true)
        LiveTaskGraphs.countIn()
        defer {
            graph.releaseLeftovers()
            LiveTaskGraphs.countOut()
        }
        return try await $binding.withValue(TaskGraph(graph: graph, task: currentTask())) {
            try await body(graph)
        }
    }

    /// Identifies the current task while it runs (its hash: tasks alive at the same time never share one but with
    /// negligible probability, and a graph lives no longer than its task's resolve).
    private static func currentTask() -> Int {
        currentTaskIdentity()
    }
}

extension ResolutionGraph {
    /// Runs `body` with this graph — a task's — as the calling thread's graph, so that the synchronous resolves
    /// `body` makes belong to the task's resolution; it takes the thread's stack limit meanwhile.
    func installed<R>(_ body: () throws -> R) rethrows -> R {
        let own = ResolutionGraph.threadGraph
        state.stackLimit = own.state.stackLimit
        CurrentThread.install(Borrowed(self))
        defer { CurrentThread.install(Borrowed(own)) }
        return try body()
    }

    /// The current task's async resolve graph when the thread's graph (`pointer`) is idle: the task is in the
    /// body of an async factory of that resolve, which is suspended there, so the graph is the task's to use, one
    /// step at a time (`TaskGraph`). Its stack limit becomes this thread's. Out of line: only looked up while
    /// some async resolve is in progress.
    @inline(never)
    static func joinedTaskGraph(of graph: Borrowed<ResolutionGraph>) -> Borrowed<ResolutionGraph>? {
        let thread = graph.object
        guard thread.depth == 0, let task = TaskGraph.graphOfCurrentTask(), task !== thread, task.depth > 0 else {
            return nil
        }
        task.state.stackLimit = thread.state.stackLimit
        return Borrowed(task)
    }

    /// Runs `body`, the entry of a segment of an async resolve, letting the scope of the resolve call it makes (the
    /// next one this graph opens) deliver an `async` or `@MainActor` definition it reaches as a hand-over
    /// (`Delivery.handOver`) instead of throwing. Scopes inside it (a factory's or a hook's resolves) throw.
    func handingOver<R>(_ body: () throws -> R) rethrows -> R {
        let previous = state.handOverDepth
        state.handOverDepth = depth + 1
        defer { state.handOverDepth = previous }
        return try body()
    }

    /// Whether the innermost scope may hand a definition that needs `await` over (`handingOver`).
    var isHandingOver: Bool { state.handOverDepth == depth }

    /// The number of singleton constructions the graph holds.
    var commitCount: Int { state.commits.count }

    /// Ends a synchronous segment of an async resolve, which recorded the singleton constructions from `start` on.
    /// They are published now when nothing in the graph waits for hooks or callbacks, so that no thread waits for
    /// an `await` to publish them. Otherwise they stay the graph's until its scope ends, as in a synchronous graph
    /// (their hooks, or those of instances they hold, have not run: published now, a failure later could not roll
    /// them back, and their hooks would never run), held across the `await`: no thread blocks on them
    /// (`Slot.mustNotBlock`); a synchronous resolve throws `requiresAwait`, an async one suspends.
    func endSegment(commitsFrom start: Int) {
        guard state.commits.count > start else { return }
        if state.queue.isEmpty && state.callbacks.isEmpty && !hasBorrowed {
            publishCommits(from: start)
        } else {
            for commit in state.commits[start...] { commit.pending.signal.holdAcrossAwait() }
        }
    }

    /// Ends the scope of an async resolve: its hooks run on the main actor when one of them is `@MainActor` code,
    /// otherwise here, with the graph installed on this thread.
    func closeScopeAsync() async throws {
        let mark = state.scopes.last?.queue ?? 0
        let needsMainActor =
            state.queue.count > mark && state.queue[mark...].contains { $0.recipe.needsMainActor }
        guard needsMainActor, !isMainThread else {
            try installed { try closeScope() }
            return
        }
        let token = GraphToken(graph: self)
        try await MainActor.run { try token.graph.installed { try token.graph.closeScope() } }
    }
}
