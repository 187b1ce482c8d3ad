import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Clock: Sendable {}

private final class Pair: Sendable {
    let first: Clock
    let second: Clock
    init(first: Clock, second: Clock) {
        self.first = first
        self.second = second
    }
}

private final class Session: Sendable {
    let tag: DependencyContainer.Tag?
    init(tag: DependencyContainer.Tag?) async {
        await Task.yield()
        self.tag = tag
    }
}

extension DependencyContainer {
    fileprivate var sharedClock: Factory<Clock> { self { Clock() }.shared }
}

/// What the body of an async factory reaches synchronously: a typed accessor or synchronous resolve it
/// calls, and `context`, belong to the async resolve's graph, as they do in a synchronous factory. Before, they
/// started graphs of their own on the thread the body ran on: two `.shared` instances in one graph, no `context`, no
/// report edges.
@Suite(.silencingPlexusLogs) struct AsyncFactoryBodyTests {
    @Test func aSharedAccessorCalledAcrossAnAwaitGivesOneInstancePerGraph() async throws {
        let container = DependencyContainer()
        container.register { [unowned container] () async -> Pair in
            let first = container.sharedClock()
            await Task.yield()
            return Pair(first: first, second: container.sharedClock())
        }
        let pair: Pair = try await container.resolve()
        #expect(pair.first === pair.second)
        let next: Pair = try await container.resolve()
        #expect(next.first !== pair.first)
    }

    @Test func anAsyncAndASynchronousResolveInOneFactoryShareTheGraph() async throws {
        let container = DependencyContainer()
        container.register(.shared) { Clock() }
        container.register(tag: "accessor") { [unowned container] () async throws -> Pair in
            let resolved: Clock = try await container.resolve()
            await Task.yield()
            return Pair(first: resolved, second: container.sharedClockByType())
        }
        let pair: Pair = try await container.resolve(tag: "accessor")
        #expect(pair.first === pair.second)
    }

    /// The body may resume on a thread that never resolved anything: its first resolve still joins the task's
    /// graph (a task executor that runs every job on a new thread makes that happen every time).
    @Test func aResolveOnAThreadNewToPlexusJoinsTheGraph() async throws {
        let container = DependencyContainer()
        let executor = NewThreadExecutor()
        container.register(.shared) { Clock() }
        container.register { [unowned container] () async throws -> Pair in
            let resolved: Clock = try await container.resolve()
            let onNewThread = await withTaskExecutorPreference(executor) { container.sharedClockByType() }
            return Pair(first: resolved, second: onNewThread)
        }
        let pair: Pair = try await container.resolve()
        #expect(pair.first === pair.second)
    }

    @Test func contextNamesTheAsyncFactorysKey() async throws {
        let container = DependencyContainer()
        container.register(tag: "main") { [unowned container] () async -> Session in
            await Session(tag: container.context?.key.tag)
        }
        let session: Session = try await container.resolve(tag: "main")
        #expect(session.tag == "main")
    }

    @Test func asyncValidateRecordsAnAccessorEdgeFromAnAsyncFactory() async throws {
        let container = DependencyContainer(name: "App")
        container.register { [unowned container] () async -> Pair in
            await Task.yield()
            return Pair(first: container.sharedClock(), second: Clock())
        }
        let report = try await container.validate()
        let pair = try #require(report.nodes(of: Pair.self).first)
        #expect(report.edges.contains { $0.from == pair.id && $0.kind == .typedAccessor })
    }

    /// A synchronous auto-wired initializer cannot wait for an async argument, even under an async resolve: the
    /// error says so and what to do, instead of only advising the `try await` the caller already wrote.
    @Test func anAsyncArgumentOfASynchronousAutoWiredInitializerExplainsWhy() async throws {
        let container = DependencyContainer()
        container.register(.shared) { () async -> Session in await Session(tag: nil) }
        container.register { (session: Session) in Pair(first: Clock(), second: Clock()) }
        let error = await #expect(throws: ResolutionError.self) { _ = try await container.resolve() as Pair }
        #expect(error?.description.contains("auto-wired initializer cannot wait") == true)
    }

    /// The weakly typed async resolve takes runtime arguments too ("with tags and arguments like the sync
    /// form"); before, the call bound to the synchronous overload and threw `requiresAwait`.
    @Test func aWeaklyTypedAsyncResolveTakesArguments() async throws {
        let container = DependencyContainer()
        container.register(tag: "id") { (id: Int) async -> Session in await Session(tag: .Int(id)) }
        let session = try await container.resolve(Session.self, tag: "id", arguments: 5)
        #expect((session as? Session)?.tag == .Int(5))
    }

    /// A child task started in the factory does not join its parent's graph (it could run at the same time).
    @Test func aChildTaskKeepsAGraphOfItsOwn() async throws {
        let container = DependencyContainer()
        container.register { [unowned container] () async -> Pair in
            let first = container.sharedClock()
            let second = await Task { container.sharedClock() }.value
            return Pair(first: first, second: second)
        }
        let pair: Pair = try await container.resolve()
        #expect(pair.first !== pair.second)
    }
}

/// Runs every job on a thread of its own, new to Plexus.
private final class NewThreadExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}

extension DependencyContainer {
    /// The `.shared` `Clock` registered by type, resolved synchronously (a sync helper: an async body would pick
    /// the async `resolve`).
    fileprivate func sharedClockByType() -> Clock {
        (try? resolve() as Clock) ?? Clock()
    }
}
