import Foundation
import Plexus
import PlexusTesting
import Testing

// `@unchecked Sendable`: `clock` is set by the property hook inside one resolution, before the instance is shared.
private final class Database: @unchecked Sendable {
    var clock: Clock?
}

private final class Clock: Sendable {}

private final class Report: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

private struct Offline: Error {}

// `@unchecked Sendable`: `clock` is set by the property hook inside one resolution, before the instance is shared.
private final class Archive: @unchecked Sendable {
    var clock: Clock?
}

private final class ArchiveReport: Sendable {
    let archive: Archive
    init(archive: Archive) { self.archive = archive }
}

/// The synchronous `resolve`, which an async test cannot name directly (`await` picks the async overload).
private func resolveSynchronously<T>(_ container: DependencyContainer) throws -> T { try container.resolve() }
private struct HookFailed: Error {}

/// A gate a test opens once: tasks suspend until it opens, so that nothing blocks a cooperative thread.
private final class Gate: Sendable {
    private let countdown = AsyncCountdown()
    func open() { countdown.arrive() }
    func wait() async { await countdown.wait() }
}

/// A synchronous singleton made inside an async resolve: its construction belongs to the async scope until
/// its hooks have run, so a failure or cancellation later in that scope rolls it back, as in a synchronous graph.
/// Before, it was published as soon as the synchronous part that made it returned, with its hooks still queued: the
/// scope's failure then dropped the hooks, and the singleton stayed cached without them.
@Suite(.silencingPlexusLogs) struct AsyncSegmentTests {
    @Test func anAsyncFactoryThatFailsAfterResolvingAHookedSingletonLeavesNothingCached() async throws {
        let container = DependencyContainer()
        let made = Counter()
        container.register(.singleton) { () -> Database in
            made.increment()
            return Database()
        }
        .resolvingProperties { _, database in database.clock = Clock() }
        container.register(.unique) { [unowned container] () async throws -> Report in
            let database: Database = try await container.resolve()
            _ = database
            throw Offline()
        }
        await #expect(throws: Offline.self) { _ = try await container.resolve() as Report }
        let database: Database = try resolveSynchronously(container)
        #expect(database.clock != nil)
        #expect(made.count == 2)
    }

    @Test func aHookThatFailsInsideAnAsyncGraphLeavesNothingCached() async throws {
        let container = DependencyContainer()
        let hookRuns = Counter()
        container.register(.singleton) { Database() }
            .resolvingProperties { _, database in
                if hookRuns.increment() == 1 { throw HookFailed() }
                database.clock = Clock()
            }
        container.register(.unique) { [unowned container] () async throws -> Report in
            await Task.yield()
            return Report(database: try await container.resolve())
        }
        await #expect(throws: HookFailed.self) { _ = try await container.resolve() as Report }
        let report: Report = try await container.resolve()
        #expect(report.database.clock != nil)
        #expect(try resolveSynchronously(container) as Database === report.database)
    }

    @Test func aCancelledAsyncResolveLeavesNoUnhookedSingleton() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Database() }
            .resolvingProperties { _, database in database.clock = Clock() }
        let resolved = Gate()
        container.register(.unique) { [unowned container] () async throws -> Report in
            let database: Database = try await container.resolve()
            resolved.open()
            // Suspended until the test cancels it; the length is only a deadline should cancellation not arrive.
            try await Task.sleep(nanoseconds: 30_000_000_000)
            return Report(database: database)
        }
        let task = Task { try await container.resolve() as Report }
        await resolved.wait()
        task.cancel()
        _ = await task.result
        let database: Database = try await container.resolve()
        #expect(database.clock != nil)
    }

    /// While the async scope holds the singleton across an `await`, a synchronous resolve on another thread throws
    /// `requiresAwait` instead of blocking; an async one waits and gets the instance, hooked, once it is published.
    @Test func aSingletonHeldAcrossAnAwaitIsNeverWaitedForByBlocking() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Database() }
            .resolvingProperties { _, database in database.clock = Clock() }
        let resolved = Gate()
        let release = Gate()
        container.register(.unique) { [unowned container] () async throws -> Report in
            let database: Database = try await container.resolve()
            resolved.open()
            await release.wait()
            return Report(database: database)
        }
        let report = Task { try await container.resolve() as Report }
        await resolved.wait()
        let syncOutcome = await Task.detached { () -> Result<Database, Error> in
            Result { try resolveSynchronously(container) as Database }
        }.value
        #expect(throws: ResolutionError.self) { try syncOutcome.get() }
        if case .failure(ResolutionError.requiresAwait(let key)) = syncOutcome {
            #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Database.self))
        } else {
            Issue.record("expected requiresAwait, got \(syncOutcome)")
        }
        let waiter = Task { try await container.resolve() as Database }
        release.open()
        let made = try await report.value
        let waited = try await waiter.value
        #expect(waited === made.database)
        #expect(waited.clock != nil)
    }

    /// A thread that started waiting for the singleton while its synchronous part was running is woken when the
    /// async resolve holds it across an `await`, and throws instead of blocking until that resolve ends.
    @Test func aThreadAlreadyWaitingWakesWhenTheSingletonIsHeldAcrossAnAwait() async throws {
        let container = DependencyContainer()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        // Its own type: the engine reports waits per type, and other tests here wait for a `Database`.
        let observation = EngineTestHooks.observeWaits(for: Archive.self) { waiting.signal() }
        defer { observation.stop() }
        container.register(.singleton) { () -> Archive in
            entered.signal()
            proceed.wait()
            return Archive()
        }
        .resolvingProperties { _, archive in archive.clock = Clock() }
        let release = Gate()
        container.register(.unique) { [unowned container] () async throws -> ArchiveReport in
            let archive: Archive = try await container.resolve()
            await release.wait()
            return ArchiveReport(archive: archive)
        }
        let report = Task { try await container.resolve() as ArchiveReport }
        await Task.detached { entered.wait() }.value
        let outcome = Collected<Result<Archive, Error>>()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            outcome.append(Result { try resolveSynchronously(container) as Archive })
            finished.signal()
        }.start()
        // Once the thread blocks on the construction, let the factory return.
        let blocked = await Task.detached { waiting.wait(timeout: .now() + 10) }.value
        #expect(blocked == .success, "the thread never waited for the construction")
        proceed.signal()
        let woke = await Task.detached { finished.wait(timeout: .now() + 10) }.value
        #expect(woke == .success, "the waiting thread stayed blocked while the async resolve was suspended")
        release.open()
        _ = try await report.value
        if woke == .timedOut { _ = await Task.detached { finished.wait(timeout: .now() + 10) }.value }
        let result = try #require(outcome.values.first)
        if case .failure(ResolutionError.requiresAwait) = result {
        } else {
            Issue.record("expected requiresAwait, got \(result)")
        }
    }

    /// A singleton without hooks is published as soon as its synchronous part returns, as before: a synchronous
    /// resolve on another thread gets it while the async factory is still suspended.
    @Test func aSingletonWithoutHooksIsPublishedBeforeTheAwait() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Clock() }
        let resolved = Gate()
        let release = Gate()
        container.register(.unique) { [unowned container] () async throws -> Report in
            _ = try await container.resolve() as Clock
            resolved.open()
            await release.wait()
            return Report(database: Database())
        }
        let report = Task { try await container.resolve() as Report }
        await resolved.wait()
        let clock = await Task.detached { try? resolveSynchronously(container) as Clock }.value
        #expect(clock != nil)
        release.open()
        _ = try await report.value
        #expect(try resolveSynchronously(container) as Clock === clock)
    }
}
