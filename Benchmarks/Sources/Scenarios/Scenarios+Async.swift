import Dispatch
import Plexus

// Swift concurrency. The runners are synchronous, so each batch runs in a task the runner waits for; both
// columns of a row pay that hand-over alike.

extension Scenario {
    /// `try await resolve()` of a synchronous singleton, against Plexus's own synchronous resolve of it in the same
    /// kind of task: the "hand" column of this row is the synchronous resolve (the goal is the ratio, ≤3x).
    static var asyncResolveOfSyncDefinition: Scenario {
        Scenario(
            id: "async-sync-definition", title: "async resolve of a sync singleton (vs sync resolve)",
            contenders: [.hand, .plexus]
        ) { contender in
            let container = DependencyContainer()
            container.register(.singleton) { ApiClient() }
            _ = try? container.resolve() as ApiClient
            switch contender {
            case .hand:
                return Runner(note: "the baseline of this row is Plexus's synchronous `resolve()`") { count in
                    try inTask {
                        for _ in 0..<count { blackHole(try resolveSynchronously(ApiClient.self, from: container)) }
                    }
                }
            case .plexus:
                return Runner { count in
                    try inTask {
                        for _ in 0..<count { blackHole(try await container.resolve() as ApiClient) }
                    }
                }
            case .swinject, .dependencies:
                return nil
            }
        }
    }

    /// 24 tasks resolving one singleton whose factory suspends, in a fresh container each time (per creation):
    /// Plexus against a hand-written actor that keeps the one creation task. Neither blocks a thread.
    static var asyncSingletonFor24Tasks: Scenario {
        Scenario(
            id: "async-singleton-24-tasks", title: "async singleton made for 24 concurrent tasks (per creation)",
            contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .hand:
                return Runner(note: "by hand: an actor that stores the creating `Task` and has every caller await it") {
                    count in
                    try inTask {
                        for _ in 0..<count {
                            let once = OnceActor()
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for _ in 0..<24 { group.addTask { blackHole(await once.value()) } }
                                try await group.waitForAll()
                            }
                        }
                    }
                }
            case .plexus:
                return Runner { count in
                    try inTask {
                        for _ in 0..<count {
                            let container = DependencyContainer()
                            container.register(.singleton) { () async -> ApiClient in
                                await Task.yield()
                                return ApiClient()
                            }
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for _ in 0..<24 { group.addTask { blackHole(try await container.resolve() as ApiClient) } }
                                try await group.waitForAll()
                            }
                        }
                    }
                }
            case .swinject, .dependencies:
                return nil
            }
        }
    }
}

/// The hand-written way to make an async singleton once for concurrent callers.
private actor OnceActor {
    private var creation: Task<ApiClient, Never>?

    func value() async -> ApiClient {
        if let creation { return await creation.value }
        let creation = Task {
            await Task.yield()
            return ApiClient()
        }
        self.creation = creation
        return await creation.value
    }
}

/// A synchronous resolve, from async code (where Swift picks the async overload).
private func resolveSynchronously<T>(_: T.Type, from container: DependencyContainer) throws -> T {
    try container.resolve()
}

/// Runs `body` in a task and blocks the calling (benchmark) thread until it is done.
func inTask(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task.detached {
        do { try await body() } catch { failure.set(error) }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
}

/// The error of a task, handed to the thread waiting for it.
// `@unchecked Sendable`: written by the task before it signals, read by the waiter after the signal.
private final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
    func set(_ error: any Error) { self.error = error }
}
