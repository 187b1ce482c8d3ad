import Foundation
import Plexus
import PlexusFactoryKit
import Testing

private final class Gauge {}

private final class Workshop: ManagedContainer {
    let manager = ContainerManager()
    var gauge: PlexusFactoryKit.Factory<Gauge> { self { Gauge() }.cached }
    var count: PlexusFactoryKit.Factory<Int> { self { 1 } }
    var badge: PlexusFactoryKit.Factory<Gauge> { self { Gauge() }.singleton }
    var part: PlexusFactoryKit.ParameterFactory<Int, Gauge> { self { _ in Gauge() }.cached.scopeOnParameters }
    var depth: PlexusFactoryKit.ParameterFactory<Int, Int> { self { $0 == 0 ? 0 : 1 + self.depth($0 - 1) } }
}

/// An object whose `deinit` resolves declarations of the container that (through an override) keeps it.
private final class Witness {
    let workshop: Workshop
    init(_ workshop: Workshop) { self.workshop = workshop }
    deinit {
        _ = workshop.count()
        _ = workshop.gauge()
    }
}

@Suite struct ReleaseAndRecursionTests {
    @Test func whatAResetReleasesMayResolveTheSameContainer() {
        for _ in 0..<20 {
            let workshop = Workshop()
            _ = workshop.gauge()
            do {
                let witness = Witness(workshop)
                workshop.count.register { [witness] in withExtendedLifetime(witness) { 2 } }
                workshop.gauge.register { [witness] in withExtendedLifetime(witness) { Gauge() } }
            }
            workshop.manager.reset()
            #expect(workshop.count() == 1)
        }
    }

    @Test func whatADeclarationResetReleasesMayResolveTheSameContainer() {
        let workshop = Workshop()
        do {
            let witness = Witness(workshop)
            workshop.count.register { [witness] in withExtendedLifetime(witness) { 2 } }
        }
        workshop.count.reset()
        #expect(workshop.count() == 1)
    }

    @Test func anOverrideUnderAClonedSingletonScopeStaysInTheClone() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let workshop = Workshop()
            let badge = workshop.badge()
            Scope.$singleton.withValue(Scope.singleton.clone()) {
                let replacement = Gauge()
                workshop.badge.register { replacement }
                #expect(workshop.badge() === replacement)
                workshop.badge.reset(.registration)
            }
            #expect(workshop.badge() === badge)
        }
    }

    @Test func resettingKeptInstancesForgetsTheSlotsOfArguments() throws {
        let workshop = Workshop()
        let first = workshop.part(1)
        let kept: Gauge = try workshop.manager.plexus.resolve(tag: "Workshop.part#0")
        #expect(kept === first)
        workshop.part.reset(.scope)
        Plexus.withLogging(level: .none) {
            #expect(throws: (any Error).self) { try workshop.manager.plexus.resolve(tag: "Workshop.part#0") as Gauge }
        }
        #expect(workshop.part(1) !== first)
    }

    @Test func graphDepthCountsTheDeclarationsBeingResolved() {
        #expect(Scope.graph.depth == 0)
    }
}

/// With the cycle check off, a declaration may call itself, as Factory lets it; a real cycle still stops, with the
/// way to break it in Factory's spellings. Exit tests: the switch is process-wide.
@Suite struct RecursionExitTests {
    @Test func aDeclarationCallingItselfRunsWithTheCheckOff() async {
        await #expect(processExitsWith: .success) {
            globalCircularDependencyTesting = false
            guard Workshop().depth(3) == 3 else { exit(1) }
        }
    }

    @Test func aCycleWithTheCheckOffStopsNamingTheFix() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            globalCircularDependencyTesting = false
            _ = Loop().first()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency"))
        #expect(message.contains("Loop.first"))
        #expect(message.contains("@LazyInjected"))
    }
}

private final class First {
    init(_: Second) {}
}
private final class Second {
    init(_: First) {}
}
private final class Loop: ManagedContainer {
    let manager = ContainerManager()
    var first: PlexusFactoryKit.Factory<First> { self { First(self.second()) } }
    var second: PlexusFactoryKit.Factory<Second> { self { Second(self.first()) } }
}

/// An instance whose `deinit` waits for another thread to resolve a declaration of its container: it finishes only if
/// whatever released it holds no lock that a resolve needs.
private final class Waiter {
    let bench: Bench
    init(_ bench: Bench) { self.bench = bench }
    deinit {
        let resolved = DispatchSemaphore(value: 0)
        let bench = self.bench
        Thread {
            _ = bench.count()
            resolved.signal()
        }.start()
        if resolved.wait(timeout: .now() + 10) == .success {
            bench.finished.increment()
        } else {
            bench.timedOut.increment()
        }
    }
}

private final class Bench: ManagedContainer {
    let manager = ContainerManager()
    let finished = Tally()
    let timedOut = Tally()
    var count: PlexusFactoryKit.Factory<Int> { self { 1 } }
    var cached: PlexusFactoryKit.Factory<Waiter> { self { Waiter(self) }.cached }
    var single: PlexusFactoryKit.Factory<Waiter> { self { Waiter(self) }.singleton }
    var expiring: PlexusFactoryKit.Factory<Waiter> { self { Waiter(self) }.cached.timeToLive(0) }
}

/// How a kept instance is dropped.
enum DroppedBy: CaseIterable, Sendable {
    case singletonScopeReset, managerScopeReset, managerResetOfTheScope, declarationReset, override
    /// An override registered again: what the replaced one captured.
    case replacedOverride
    /// A read whose scope property differs from the declaration's: the instance the old scope kept.
    case scopeChangedByARead
    /// A read after the time to live: the expired instance.
    case expiry
}

@Suite struct ReleaseOutsideTheLockTests {
    @Test(arguments: DroppedBy.allCases)
    func aDroppedInstanceIsReleasedWithNoLockHeld(_ droppedBy: DroppedBy) {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let bench = Bench()
            do {
                switch droppedBy {
                case .singletonScopeReset:
                    _ = bench.single()
                    Scope.singleton.reset()
                case .managerScopeReset:
                    _ = bench.cached()
                    bench.manager.reset(options: .scope)
                case .managerResetOfTheScope:
                    _ = bench.cached()
                    bench.manager.reset(scope: .cached)
                case .declarationReset:
                    _ = bench.cached()
                    bench.cached.reset(.scope)
                case .override:
                    _ = bench.cached()
                    bench.cached.register { Waiter(bench) }
                case .replacedOverride:
                    bench.count.register { [waiter = Waiter(bench)] in withExtendedLifetime(waiter) { 2 } }
                    bench.count.register { 3 }
                case .scopeChangedByARead:
                    _ = bench.cached()
                    _ = bench.cached.unique()
                case .expiry:
                    _ = bench.expiring()
                    _ = bench.expiring()
                }
            }
            #expect(bench.timedOut.count == 0)
            #expect(bench.finished.count >= 1)
        }
    }
}
