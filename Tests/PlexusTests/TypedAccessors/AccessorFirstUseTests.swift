import Foundation
import Plexus
import PlexusTesting
import Synchronization
import Testing

private final class Ledger: Sendable {}

/// Counts its completions; touched only by the thread that resolves it, so `@unchecked Sendable` holds.
private class Completable: Resolvable, @unchecked Sendable {
    var completions = 0
    func resolveDependencies(_ container: DependencyContainer) { completions += 1 }
}

/// Not `Resolvable` itself: its subclass is.
private class Screen: @unchecked Sendable {}
/// Counts its completions; touched only by the thread that resolves it, so `@unchecked Sendable` holds.
private final class CompletedScreen: Screen, Resolvable, @unchecked Sendable {
    var completions = 0
    func resolveDependencies(_ container: DependencyContainer) { completions += 1 }
}

private final class Report: @unchecked Sendable {
    @Injected var ledger: Ledger?
}

extension DependencyContainer {
    fileprivate var firstUseLedger: Factory<Ledger> { self { Ledger() }.singleton }
    fileprivate var firstUseCompletable: Factory<Completable> { self { Completable() } }
    fileprivate var plainScreen: Factory<Screen> { self { Screen() } }
    fileprivate var completedScreen: Factory<Screen> { self { CompletedScreen() } }
    fileprivate var firstUseReport: Factory<Report> { self { Report() } }
}

/// An accessor used in one container and then, for the first time, in new ones: what each new container learns from
/// the earlier ones (the accessor's key, what its instances need) gives the same answers as learning it anew.
@Suite(.silencingPlexusLogs) struct AccessorFirstUseTests {
    @Test func theKeyIsSpelledTheSameInEveryContainer() throws {
        for _ in 0..<3 {
            let container = DependencyContainer()
            let ledger = container.firstUseLedger()
            #expect(try container.resolve(tag: "DependencyContainer.firstUseLedger") as Ledger === ledger)
        }
    }

    @Test func aDefinitionUnderTheKeyOverridesTheDefaultInANewContainer() throws {
        _ = DependencyContainer().firstUseLedger()
        let container = DependencyContainer()
        let registered = Ledger()
        container.register(.singleton, tag: "DependencyContainer.firstUseLedger") { registered }
        #expect(container.firstUseLedger() === registered)
    }

    @Test func aResolvableInstanceIsCompletedInEveryNewContainer() {
        for _ in 0..<3 {
            #expect(DependencyContainer().firstUseCompletable().completions == 1)
        }
        let quiet = DependencyContainer(callsResolvable: false)
        #expect(quiet.firstUseCompletable().completions == 0)
        #expect(DependencyContainer().firstUseCompletable().completions == 1)
    }

    /// A new container knows what instances of the declared class need; an instance of a subclass is still checked.
    @Test func aResolvableSubclassOfTheDeclaredClassIsCompleted() {
        _ = DependencyContainer().plainScreen()
        for _ in 0..<2 {
            let screen = DependencyContainer().completedScreen()
            #expect((screen as? CompletedScreen)?.completions == 1)
        }
    }

    @Test func injectedPropertiesAreFilledInEveryNewContainer() throws {
        for _ in 0..<3 {
            let container = DependencyContainer()
            container.register(.singleton) { Ledger() }
            #expect(try container.firstUseReport().ledger === container.resolve() as Ledger)
        }
        let manual = DependencyContainer(autoInjectProperties: false)
        manual.register(.singleton) { Ledger() }
        #expect(manual.firstUseReport().ledger == nil)
    }

    /// Threads that each make new containers and use the same accessors first there at the same time share what they
    /// learn without a race (run under ThreadSanitizer) and each get their container's own singleton.
    @Test func newContainersOnSeveralThreadsAnswerAlike() {
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 {
                let container = DependencyContainer()
                container.register(.singleton) { Ledger() }
                let ledger = container.firstUseLedger()
                let tagged = try? container.resolve(tag: "DependencyContainer.firstUseLedger") as Ledger
                let injected = container.firstUseReport().ledger
                if tagged !== ledger || injected == nil || injected === ledger { wrong.withLock { $0 += 1 } }
                if container.firstUseCompletable().completions != 1 { wrong.withLock { $0 += 1 } }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }
}
