import Foundation
import Plexus
import Testing

// The fast path runs a `.unique` or `.shared` factory without retaining its definition (a hazard mark stands for
// the reference): a change that drops the definition meanwhile (re-registration, removal, reset, restored snapshot,
// an accessor's override) must keep it until the factory returned. Each factory here captures a `Payload` that
// notes when it is freed while a factory that holds it runs.

/// What a factory's closure holds, and nothing else: it is freed exactly when the closure is.
private final class Token: Sendable {}

/// What a factory calls: it makes an instance slowly, so that writers get to drop the definition meanwhile, and notes
/// when the closure that called it (which holds `token`, weakly referenced here) was freed while it ran.
/// `@unchecked Sendable`: `token` is a weak reference set once, before the payload is shared.
private final class Payload: @unchecked Sendable {
    let version: Int
    let failures: Collected<String>
    private weak var token: Token?

    init(version: Int, failures: Collected<String>) {
        self.version = version
        self.failures = failures
    }

    /// A factory closure whose context holds the payload and a token of its own.
    func factory() -> @Sendable () -> ReclaimedVersioned {
        let token = Token()
        self.token = token
        return { [token, self] in
            withExtendedLifetime(token) {}
            return self.make()
        }
    }

    private func make() -> ReclaimedVersioned {
        for _ in 0..<20 { sched_yield() }
        if token == nil { failures.append("the factory of \(version) was freed while it ran") }
        return ReclaimedVersioned(version: version)
    }
}

private final class ReclaimedVersioned: Sendable {
    let version: Int

    init(version: Int) {
        self.version = version
    }
}

/// Drops `ReclaimedVersioned`'s definition in `container` in one of the ways that drop a slot, by `round`.
private func drop(in container: DependencyContainer, round: Int, failures: Collected<String>) {
    let payload = Payload(version: round, failures: failures)
    switch round % 4 {
    case 0: container.register(.unique, factory: payload.factory())
    case 1: container.remove(container.register(.unique, factory: payload.factory()))
    case 2: container.reset()
    default:
        let snapshot = container.snapshot()
        container.register(.unique, factory: payload.factory())
        container.restore(snapshot)
    }
    container.register(.unique, factory: Payload(version: round, failures: failures).factory())
}

/// Resolves a `ReclaimedVersioned` from `container`: anything but an instance or `definitionNotFound` (the writer
/// dropped the definition) goes into `failures`.
private func resolveReclaimed(from container: DependencyContainer, into failures: Collected<String>) {
    do {
        _ = try container.resolve() as ReclaimedVersioned
    } catch ResolutionError.definitionNotFound {
        return
    } catch {
        failures.append("\(error)")
    }
}

extension DependencyContainer {
    fileprivate var reclaimed: Factory<ReclaimedVersioned> {
        get { self { ReclaimedVersioned(version: -1) } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct SlotReclamationTests {
    @Test(arguments: [false, true])
    func aDefinitionDroppedWhileItsFactoryRunsIsKeptUntilTheFactoryReturns(throughACollaborator: Bool) {
        // Writes are rare enough that most resolves read without the lock (the reader bias) between them. Through a
        // collaborator, resolves take the remembered route to the owner's slot, which they mark as the owner's own
        // resolves do.
        let owner = DependencyContainer()
        let reader = throughACollaborator ? DependencyContainer() : owner
        if throughACollaborator { reader.collaborate(with: owner) }
        let failures = Collected<String>()
        owner.register(.unique, factory: Payload(version: 0, failures: failures).factory())
        let finished = runReadersAndAWriter { round in
            drop(in: owner, round: round / 64, failures: failures)
        } read: { _ in
            resolveReclaimed(from: reader, into: failures)
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func anAccessorOverriddenWhileItsFactoryRunsIsKeptUntilTheFactoryReturns() {
        let container = DependencyContainer()
        let failures = Collected<String>()
        let finished = runReadersAndAWriter { round in
            let payload = Payload(version: round, failures: failures)
            switch round % 4 {
            case 0: container.reset()
            // The override goes, with the instances kept for the key: the declared default answers.
            case 1: container.reclaimed.reset()
            default: container.reclaimed = .factory(payload.factory())
            }
        } read: { _ in
            if (try? container.reclaimed.resolve()) == nil { failures.append("accessor failed") }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func aFactoryThatRemovesItsOwnDefinitionFinishesWithIt() throws {
        // The factory drops its own definition while it runs, on the same thread: the definition (and what its
        // closure holds) stays until the factory returned, and goes with the next change.
        let container = DependencyContainer()
        let failures = Collected<String>()
        weak var released: Payload?
        do {
            let payload = Payload(version: 1, failures: failures)
            released = payload
            let factory = payload.factory()
            container.register(.unique) { [unowned container] () -> ReclaimedVersioned in
                container.reset()
                return factory()
            }
        }
        let made: ReclaimedVersioned = try container.resolve()
        #expect(made.version == 1)
        #expect(throws: ResolutionError.self) { try container.resolve() as ReclaimedVersioned }
        container.register { 0 }
        #expect(released == nil)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func aResetWhileAnotherFactoryRunsReleasesTheOldSingletonsAtOnce() {
        // Only the slot whose factory runs is kept; the reset's other definitions and their singletons go at once.
        let container = DependencyContainer()
        let failures = Collected<String>()
        weak var singleton: Payload?
        container.register(.singleton) { Payload(version: 4, failures: failures) }
        singleton = try? container.resolve() as Payload
        #expect(singleton != nil)
        let inFactory = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        container.register(.unique, tag: "slow") { () -> Int in
            inFactory.signal()
            _ = proceed.wait(timeout: .now() + 10)
            return 0
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? container.resolve(tag: "slow") as Int
            done.signal()
        }.start()
        #expect(inFactory.wait(timeout: .now() + 10) == .success)
        container.reset()
        #expect(singleton == nil, "the reset's singleton is still alive while another factory runs")
        proceed.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func definitionsReplacedWhileOtherFactoriesRunDoNotAccumulate() {
        // Two threads resolve all the time (their marks are always set) while a writer replaces a definition 2,000
        // times: each replaced definition goes at once, since no factory of it runs.
        let container = DependencyContainer()
        container.register(.unique) { () -> Int in
            for _ in 0..<50 { sched_yield() }
            return 0
        }
        let stop = Collected<Bool>()
        let alive = Collected<Int>()
        let finished = runOnThreads(3) { index in
            guard index == 0 else {
                while stop.values.isEmpty { _ = try? container.resolve() as Int }
                return
            }
            var replaced: [() -> Token?] = []
            for round in 0..<2_000 {
                let token = Token()
                replaced.append { [weak token] in token }
                container.register(.unique, tag: "replaced") { withExtendedLifetime(token) { round } }
            }
            alive.append(replaced.filter { $0() != nil }.count)
            stop.append(true)
        }
        #expect(finished)
        // The last registration is still registered.
        #expect(alive.values == [1])
    }

    @Test func definitionsDroppedWhileNoFactoryRunsAreReleasedAtOnce() {
        let container = DependencyContainer()
        let failures = Collected<String>()
        weak var released: Payload?
        do {
            let payload = Payload(version: 2, failures: failures)
            released = payload
            container.register(.unique, factory: payload.factory())
        }
        #expect((try? container.resolve() as ReclaimedVersioned)?.version == 2)
        container.remove(container.register(.unique, factory: Payload(version: 3, failures: failures).factory()))
        #expect(released == nil)
    }
}
