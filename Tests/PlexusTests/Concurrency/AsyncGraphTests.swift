import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Connection: Sendable {
    init() async { await Task.yield() }
}

// `@unchecked Sendable`: the properties are set by hooks inside one resolution, before the instance is shared.
private final class Presenter: @unchecked Sendable {
    let connection: Connection
    var view: View?
    init(connection: Connection) { self.connection = connection }
}

// `@unchecked Sendable`: as `Presenter`.
private final class View: @unchecked Sendable {
    weak var presenter: Presenter?
}

private final class Clock: Sendable {}

// `@unchecked Sendable`: `clock` is injected inside one resolution, before the instance is shared.
private final class Dashboard: @unchecked Sendable {
    @Injected var clock: Clock?
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
}

// `@unchecked Sendable`: `didResolve` is set by `didResolveDependencies`, inside one resolution.
private final class Tracker: Resolvable, @unchecked Sendable {
    var hooked = false
    var didResolve = false
    var hookedWhenDidResolveRan = false
    func didResolveDependencies() {
        didResolve = true
        hookedWhenDidResolveRan = hooked
    }
}

private final class Slow: Sendable {
    let helper: Helper
    /// Suspends until every task is asking (`asking`), so that they all find this construction under way.
    init(helper: Helper, asking: AsyncCountdown) async throws {
        await asking.wait()
        self.helper = helper
    }
}

private final class Helper: Sendable {
    let part: Part
    init(part: Part) { self.part = part }
}

private final class Part: Sendable {}

@Suite(.silencingPlexusLogs) struct AsyncGraphTests {
    @Test func propertyHooksCloseACycleThroughAnAsyncFactory() async throws {
        let container = DependencyContainer()
        container.register(.shared) { () async -> Connection in await Connection() }
        container.register(.shared) { [unowned container] () async throws -> Presenter in
            Presenter(connection: try await container.resolve())
        }
        .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
        container.register(.shared) { View() }
            .resolvingProperties { container, view in view.presenter = try container.resolve() }
        let presenter: Presenter = try await container.resolve()
        #expect(presenter.view?.presenter === presenter)
    }

    @Test func autoInjectionAndResolvableCallbacksRunInAnAsyncGraph() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Clock() }
        container.register(.shared) { () async -> Connection in await Connection() }
        container.register { [unowned container] () async throws -> Dashboard in
            Dashboard(connection: try await container.resolve())
        }
        container.register { () async -> Tracker in
            await Task.yield()
            return Tracker()
        }
        .resolvingProperties { _, tracker in tracker.hooked = true }
        let dashboard: Dashboard = try await container.resolve()
        #expect(dashboard.clock === (try await container.resolve() as Clock))
        let tracker: Tracker = try await container.resolve()
        #expect(tracker.didResolve)
        #expect(tracker.hookedWhenDidResolveRan)
    }

    @Test func aFailedAsyncResolveLeavesNothingForTheNextResolveOnTheTask() async throws {
        struct Refused: Error {}
        let container = DependencyContainer()
        let hooks = Counter()
        container.register(.unique) { () async -> Connection in await Connection() }
            .resolvingProperties { _, _ in hooks.increment() }
        container.register(.unique) { [unowned container] () async throws -> Presenter in
            _ = try await container.resolve() as Connection
            throw Refused()
        }
        await #expect(throws: Refused.self) { _ = try await container.resolve() as Presenter }
        #expect(hooks.count == 0)
        _ = try await container.resolve() as Connection
        #expect(hooks.count == 1)
    }

    @Test func childTasksInsideAFactoryResolveInGraphsOfTheirOwn() async throws {
        let container = DependencyContainer()
        container.register(.shared) { () async -> Connection in await Connection() }
        container.register(.unique) { [unowned container] () async throws -> Presenter in
            async let first: Connection = container.resolve()
            async let second: Connection = container.resolve()
            let (a, b) = try await (first, second)
            #expect(a !== b)  // each child task is a resolution of its own
            return Presenter(connection: a)
        }
        let presenter: Presenter = try await container.resolve()
        #expect(presenter.view == nil)
    }

    /// Async and sync resolves of two containers collaborating both ways, at once, never deadlock (a watchdog bounds
    /// every round) and create each singleton once.
    @Test(arguments: 1...5)
    func asyncAndSyncResolvesOfCollaboratingContainersNeverDeadlock(round: Int) async throws {
        let left = DependencyContainer()
        let right = DependencyContainer()
        left.collaborate(with: right)
        right.collaborate(with: left)
        let slowMade = Counter()
        let helperMade = Counter()
        let asking = AsyncCountdown(16)
        left.register(.singleton) { [unowned left] () async throws -> Slow in
            slowMade.increment()
            return try await Slow(helper: try await left.resolve(), asking: asking)
        }
        right.register(.singleton) { [unowned right] () throws -> Helper in
            helperMade.increment()
            return Helper(part: try right.resolve())
        }
        left.register(.unique) { Part() }

        let finishedThreads = Counter()
        let threadsDone = DispatchSemaphore(value: 0)
        for index in 0..<4 {
            Thread(
                block: quiet {
                    let container = index.isMultiple(of: 2) ? left : right
                    for _ in 0..<50 { _ = try? container.resolve() as Helper }
                    finishedThreads.increment()
                    threadsDone.signal()
                }
            ).start()
        }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(hangLimit) * 1_000_000_000)
            Issue.record("round \(round) did not finish within \(hangLimit) s")
        }
        let slows = try await withThrowingTaskGroup(of: Slow.self) { group in
            for index in 0..<16 {
                let container = index.isMultiple(of: 2) ? left : right
                group.addTask {
                    asking.arrive()
                    return try await container.resolve() as Slow
                }
            }
            return try await group.reduce(into: [Slow]()) { $0.append($1) }
        }
        for _ in 0..<4 { _ = await Task.detached { threadsDone.wait(timeout: .now() + 60) }.value }
        watchdog.cancel()
        #expect(finishedThreads.count == 4)
        #expect(slows.count == 16)
        #expect(slows.allSatisfy { $0 === slows[0] })
        #expect(slowMade.count == 1)
        #expect(helperMade.count == 1)
    }
}
