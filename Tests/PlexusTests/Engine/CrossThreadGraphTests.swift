import Foundation
import Plexus
import Testing

/// A singleton whose hook resolves `Partner`, which takes it in its initializer.
private final class Hub: @unchecked Sendable {
    // `@unchecked Sendable`: `partner` is written by the hook, before any resolve that can reach the hub returns.
    var partner: Partner?
}

private final class Partner: Sendable {
    let hub: Hub
    init(hub: Hub) { self.hub = hub }
}

private struct HookFailure: Error {}

/// Two threads constructing a hook-closed singleton cycle from opposite ends, each round in a fresh container: one
/// resolves `Hub` (whose hook resolves `Partner`), the other `Partner` (whose initializer resolves `Hub`). The
/// threads wait on each other's constructions; whatever either resolve returns must be whole.
@Suite(.silencingPlexusLogs) struct CrossThreadGraphTests {
    /// The steps that force both constructions to be claimed before either needs the other: the partner's factory
    /// lets the hub's thread start once it holds `Partner`'s claim, and asks for `Hub` only once the hub's hook runs.
    private final class Steering: Sendable {
        let partnerClaimed = DispatchSemaphore(value: 0)
        let hookRuns = DispatchSemaphore(value: 0)
    }

    private func register(
        in container: DependencyContainer, steering: Steering?,
        hook: @escaping @Sendable (DependencyContainer, Hub) throws -> Void
    ) {
        container.register(.singleton) { Hub() }
            .resolvingProperties { c, hub in
                steering?.hookRuns.signal()
                try hook(c, hub)
            }
        container.register(.singleton) { [unowned container] () throws -> Partner in
            if let steering {
                steering.partnerClaimed.signal()
                _ = steering.hookRuns.wait(timeout: .now() + 10)
            }
            return Partner(hub: try container.resolve())
        }
    }

    /// Runs the hub's resolve on one thread and the partner's on another; with `steering`, the partner's thread
    /// starts first and the hub's waits until `Partner` is claimed.
    private func race(
        _ container: DependencyContainer, steering: Steering?,
        hub: @escaping @Sendable () -> Void, partner: @escaping @Sendable () -> Void
    ) -> Bool {
        runOnThreads(2, timeout: 20) { index in
            if index == 0 {
                if let steering { _ = steering.partnerClaimed.wait(timeout: .now() + 10) }
                hub()
            } else {
                partner()
            }
        }
    }

    @Test func aResolveWaitingOnAnotherThreadsHookReturnsOnlyOnceTheHookRan() throws {
        // The hook resolves the partner, then holds on until the partner's thread has returned (or a short bound
        // passes): a partner returned before the hook finished sees `hub.partner` still nil.
        for _ in 0..<5 {
            let container = DependencyContainer()
            let steering = Steering()
            let partnerReturned = DispatchSemaphore(value: 0)
            register(in: container, steering: steering) { c, hub in
                let partner: Partner = try c.resolve()
                _ = partnerReturned.wait(timeout: .now() + .milliseconds(100))
                hub.partner = partner
            }
            let outcomes = Collected<String>()
            let finished = race(
                container, steering: steering,
                hub: {
                    do {
                        let hub: Hub = try container.resolve()
                        outcomes.append(hub.partner?.hub === hub ? "whole" : "hub without its partner")
                    } catch {
                        outcomes.append("hub threw \(error)")
                    }
                },
                partner: {
                    do {
                        let partner: Partner = try container.resolve()
                        let whole = partner.hub.partner === partner
                        partnerReturned.signal()
                        outcomes.append(whole ? "whole" : "partner returned before the hub's hook ran")
                    } catch {
                        partnerReturned.signal()
                        outcomes.append("partner threw \(error)")
                    }
                })
            try #require(finished, "threads did not finish within 20 s: deadlock")
            #expect(outcomes.values == ["whole", "whole"])
        }
    }

    @Test(arguments: [false, true])
    func resolvesFromBothEndsAtOnceReturnWholeGraphs(steered: Bool) throws {
        for _ in 0..<300 {
            let container = DependencyContainer()
            let steering = steered ? Steering() : nil
            register(in: container, steering: steering) { c, hub in hub.partner = try c.resolve() }
            let failures = Collected<String>()
            let finished = race(
                container, steering: steering,
                hub: {
                    do {
                        let hub: Hub = try container.resolve()
                        if hub.partner?.hub !== hub { failures.append("hub without its partner") }
                    } catch {
                        failures.append("hub threw \(error)")
                    }
                },
                partner: {
                    do {
                        let partner: Partner = try container.resolve()
                        if partner.hub.partner !== partner { failures.append("partner's hub without its partner") }
                    } catch {
                        failures.append("partner threw \(error)")
                    }
                })
            try #require(finished, "threads did not finish within 20 s: deadlock")
            #expect(failures.values.isEmpty)
            let hub: Hub = try container.resolve()
            let partner: Partner = try container.resolve()
            #expect(hub.partner === partner && partner.hub === hub)
        }
    }

    @Test func resolvesFromBothEndsOnManyThreadsReturnWholeGraphs() throws {
        // Several graphs may borrow from the same construction, and a third thread may wait for a graph that waits
        // for its loans.
        for _ in 0..<150 {
            let container = DependencyContainer()
            register(in: container, steering: nil) { c, hub in hub.partner = try c.resolve() }
            let failures = Collected<String>()
            let finished = runOnThreads(6, timeout: 20) { index in
                do {
                    if index.isMultiple(of: 2) {
                        let hub: Hub = try container.resolve()
                        if hub.partner?.hub !== hub { failures.append("thread \(index): hub without its partner") }
                    } else {
                        let partner: Partner = try container.resolve()
                        if partner.hub.partner !== partner {
                            failures.append("thread \(index): partner's hub without its partner")
                        }
                    }
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
            try #require(finished, "threads did not finish within 20 s: deadlock")
            #expect(failures.values.isEmpty)
        }
    }

    @Test(arguments: [false, true])
    func aHookThatFailsOnceLeavesNothingHalfBuilt(steered: Bool) throws {
        for _ in 0..<300 {
            let container = DependencyContainer()
            let steering = steered ? Steering() : nil
            let runs = Counter()
            register(in: container, steering: steering) { c, hub in
                let partner: Partner = try c.resolve()
                if runs.increment() == 1 { throw HookFailure() }
                hub.partner = partner
            }
            let failures = Collected<String>()
            let outcome: @Sendable (String, () throws -> Bool) -> Void = { side, resolve in
                do {
                    if try !resolve() { failures.append("\(side) returned a half-built graph") }
                } catch is HookFailure {
                    // The failed hook's error, thrown to every resolve that waited on what it was building.
                } catch {
                    failures.append("\(side) threw \(error)")
                }
            }
            let finished = race(
                container, steering: steering,
                hub: {
                    outcome("hub") {
                        let hub: Hub = try container.resolve()
                        return hub.partner?.hub === hub
                    }
                },
                partner: {
                    outcome("partner") {
                        let partner: Partner = try container.resolve()
                        return partner.hub.partner === partner
                    }
                })
            try #require(finished, "threads did not finish within 20 s: deadlock")
            #expect(failures.values.isEmpty)
            // Whatever the race left cached is whole.
            let hub: Hub = try container.resolve()
            let partner: Partner = try container.resolve()
            #expect(hub.partner === partner, "a hub published without its hook having run")
            #expect(partner.hub === hub)
        }
    }

    @Test func aHookThatFailsAfterResolvingWhatHoldsItCachesNothingOnOneThread() throws {
        // The partner, made inside the hub's hook, holds the hub: it is published with the hub or not at all.
        let container = DependencyContainer()
        let runs = Counter()
        register(in: container, steering: nil) { c, hub in
            let partner: Partner = try c.resolve()
            if runs.increment() == 1 { throw HookFailure() }
            hub.partner = partner
        }
        #expect(throws: HookFailure.self) { try container.resolve() as Hub }
        let hub: Hub = try container.resolve()
        let partner: Partner = try container.resolve()
        #expect(hub.partner === partner)
        #expect(partner.hub === hub, "a partner published holding a hub whose hook failed")
    }
}
