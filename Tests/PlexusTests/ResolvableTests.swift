import Foundation
import Plexus
import PlexusTesting
import Testing

/// Records events in order; `@unchecked Sendable` is safe because `entries` is only touched under `lock`.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    var events: [String] { lock.withLock { entries } }

    func record(_ event: String) {
        lock.withLock { entries.append(event) }
    }

    func count(of event: String) -> Int {
        events.filter { $0 == event }.count
    }
}

/// A `Resolvable` that writes both callbacks to a log under its name.
private class Recording: Resolvable {
    let name: String
    let log: EventLog

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    func resolveDependencies(_ container: DependencyContainer) {
        log.record("resolve \(name)")
    }

    func didResolveDependencies() {
        log.record("did \(name)")
    }
}

private final class Top: Recording {}
private final class Middle: Recording {}
private final class Bottom: Recording {}

/// Implements only `resolveDependencies`; the other method uses the public default.
private final class OnlyResolves: Resolvable {
    var resolveCalls = 0

    func resolveDependencies(_ container: DependencyContainer) {
        resolveCalls += 1
    }
}

/// Implements only `didResolveDependencies`; the other method uses the public default.
private final class OnlyDidResolve: Resolvable {
    var didResolveCalls = 0

    func didResolveDependencies() {
        didResolveCalls += 1
    }
}

/// Implements neither method.
private final class ImplementsNothing: Resolvable {}

private final class Peer {}

/// Resolves a peer in `resolveDependencies` and checks in `didResolveDependencies` that it is still there.
private final class Completing: Resolvable {
    var peer: Peer?
    var owner: ObjectIdentifier?
    var peerWasSetWhenDidResolve = false

    func resolveDependencies(_ container: DependencyContainer) {
        owner = ObjectIdentifier(container)
        peer = try? container.resolve()
    }

    func didResolveDependencies() {
        peerWasSetWhenDidResolve = peer != nil
    }
}

/// A class that does not conform, and a subclass of it that does.
private class PlainBase {}
private final class ConformingSubclass: PlainBase, Resolvable {
    var resolveCalls = 0
    var didResolveCalls = 0

    func resolveDependencies(_ container: DependencyContainer) {
        resolveCalls += 1
    }

    func didResolveDependencies() {
        didResolveCalls += 1
    }
}

/// Holds a `Resolvable` as a plain stored property, and an `@Injected` one.
private final class HoldsAConformer {
    let held = OnlyResolves()
    @Injected var injected: OnlyDidResolve?
}

/// Resolved for the first time by several threads at once: both questions about its class are learned concurrently.
private final class LearnedConcurrently: Resolvable {
    @Injected var peer: Peer?
    var resolveCalls = 0

    func resolveDependencies(_ container: DependencyContainer) {
        resolveCalls += 1
    }
}

private enum HookError: Error {
    case failed
}

@Suite(.silencingPlexusLogs) struct ResolvableTests {
    let container = DependencyContainer()
    private let log = EventLog()

    @Test func conformerImplementingOnlyResolveDependenciesIsCalled() throws {
        container.register(.unique) { OnlyResolves() }

        let instance: OnlyResolves = try container.resolve()

        #expect(instance.resolveCalls == 1)
    }

    @Test func conformerImplementingOnlyDidResolveDependenciesIsCalled() throws {
        container.register(.unique) { OnlyDidResolve() }

        let instance: OnlyDidResolve = try container.resolve()

        #expect(instance.didResolveCalls == 1)
    }

    @Test func conformerImplementingNothingResolves() throws {
        container.register { ImplementsNothing() }

        let instance: ImplementsNothing = try container.resolve()

        // The public defaults are callable from outside the module and do nothing.
        instance.resolveDependencies(container)
        instance.didResolveDependencies()
        #expect(try container.resolve() as ImplementsNothing !== instance)
    }

    @Test func resolveDependenciesReceivesTheOwningContainer() throws {
        let child = DependencyContainer()
        container.register { Completing() }
        container.register { Peer() }
        child.collaborate(with: container)

        let instance: Completing = try child.resolve()

        #expect(instance.owner == ObjectIdentifier(container))
        #expect(instance.peer != nil)
        #expect(instance.peerWasSetWhenDidResolve)
    }

    @Test func resolveDependenciesIsCalledOncePerCreatedInstance() throws {
        container.register(.unique) { [log] in Bottom("bottom", log: log) }

        _ = try container.resolve() as Bottom
        _ = try container.resolve() as Bottom
        _ = try container.resolve() as Bottom

        #expect(log.count(of: "resolve bottom") == 3)
        #expect(log.count(of: "did bottom") == 3)
    }

    @Test func sharedInstanceIsCompletedOnceInAGraph() throws {
        container.register { [log] in Bottom("bottom", log: log) }
        container.register { [unowned container, log] () throws -> Middle in
            _ = try container.resolve() as Bottom
            _ = try container.resolve() as Bottom
            return Middle("middle", log: log)
        }

        _ = try container.resolve() as Middle

        #expect(log.count(of: "resolve bottom") == 1)
        #expect(log.count(of: "did bottom") == 1)
        #expect(log.count(of: "resolve middle") == 1)
        #expect(log.count(of: "did middle") == 1)
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton, .weakSingleton])
    func singletonIsCompletedOnlyWhenCreated(scope: ComponentScope) throws {
        container.register(scope) { [log] in Bottom("bottom", log: log) }

        let first: Bottom = try container.resolve()
        let second: Bottom = try container.resolve()

        #expect(first === second)
        #expect(log.events == ["resolve bottom", "did bottom"])
    }

    @Test func didResolveDependenciesRunsInReverseCreationOrderAfterEveryHook() throws {
        // Bottom is created first, then Middle, then Top.
        container.register { [unowned container, log] () throws -> Top in
            _ = try container.resolve() as Middle
            return Top("top", log: log)
        }
        container.register { [unowned container, log] () throws -> Middle in
            _ = try container.resolve() as Bottom
            return Middle("middle", log: log)
        }
        container.register { [log] in Bottom("bottom", log: log) }
            .resolvingProperties { [log] _, _ in log.record("hook bottom") }

        _ = try container.resolve() as Top

        let events = log.events
        let completions = events.prefix(4)
        #expect(completions.filter { $0.hasPrefix("resolve ") } == ["resolve bottom", "resolve middle", "resolve top"])
        #expect(completions.contains("hook bottom"))
        #expect(events.suffix(3) == ["did top", "did middle", "did bottom"])
        #expect(events.count == 7)
    }

    @Test func instancesResolvedInHooksAreCompletedToo() throws {
        container.register { [log] in Top("top", log: log) }
            .resolvingProperties { c, _ in _ = try c.resolve() as Bottom }
        container.register { [log] in Bottom("bottom", log: log) }

        _ = try container.resolve() as Top

        #expect(log.events == ["resolve top", "resolve bottom", "did bottom", "did top"])
    }

    @Test func didResolveDependenciesHappensBeforeResolveReturns() throws {
        container.register { [log] in Bottom("bottom", log: log) }
        container.register { [unowned container, log] () throws -> Middle in
            _ = try container.resolve() as Bottom
            log.record("middle factory returns")
            return Middle("middle", log: log)
        }

        _ = try container.resolve() as Middle
        log.record("resolve returned")

        #expect(log.events.last == "resolve returned")
        #expect(log.events.dropLast().suffix(2) == ["did middle", "did bottom"])
    }

    @Test func didResolveDependenciesIsNotCalledWhenTheGraphFails() throws {
        container.register { [log] in Bottom("bottom", log: log) }
        container.register { [unowned container, log] () throws -> Middle in
            _ = try container.resolve() as Bottom
            return Middle("middle", log: log)
        }
        .resolvingProperties { _, _ in throw HookError.failed }

        #expect(throws: HookError.self) { try container.resolve() as Middle }
        #expect(log.count(of: "did bottom") == 0)
        #expect(log.count(of: "did middle") == 0)
    }

    // MARK: Dynamic types

    @Test func subclassThatConformsIsCompletedWhenRegisteredAsItsBase() throws {
        container.register(.unique) { ConformingSubclass() as PlainBase }

        let instance = try #require(try container.resolve() as PlainBase as? ConformingSubclass)

        #expect(instance.resolveCalls == 1)
        #expect(instance.didResolveCalls == 1)
    }

    @Test func conformerRegisteredAsAnOptionalIsCompleted() throws {
        container.register(.unique) { OnlyResolves() as OnlyResolves? }

        let instance = try #require(try container.resolve() as OnlyResolves?)

        #expect(instance.resolveCalls == 1)
    }

    @Test func aConformerHeldInAStoredPropertyIsNotTakenForAnInjectedProperty() throws {
        container.register(.unique) { OnlyDidResolve() }
        container.register(.unique) { HoldsAConformer() }

        let host: HoldsAConformer = try container.resolve()

        #expect(host.held.resolveCalls == 0)
        #expect(try #require(host.injected).didResolveCalls == 1)
    }

    // MARK: On and off

    @Test func containerCanTurnResolvableOff() throws {
        let container = DependencyContainer(callsResolvable: false)
        container.register(.unique) { OnlyResolves() }
        container.register(.unique) { OnlyDidResolve() }
        container.register(.unique) { HoldsAConformer() }

        let host: HoldsAConformer = try container.resolve()

        #expect(!container.callsResolvable)
        #expect((try container.resolve() as OnlyResolves).resolveCalls == 0)
        // Auto-injection stays on, and the injected instance is not completed either.
        #expect(try #require(host.injected).didResolveCalls == 0)
    }

    @Test func aClassFirstResolvedWithResolvableOffIsStillCompletedWhereItIsOn() throws {
        let off = DependencyContainer(autoInjectProperties: false, callsResolvable: false)
        off.register(.unique) { ConformingSubclass() }
        container.register(.unique) { ConformingSubclass() }

        #expect((try off.resolve() as ConformingSubclass).resolveCalls == 0)
        #expect((try container.resolve() as ConformingSubclass).resolveCalls == 1)
        #expect((try off.resolve() as ConformingSubclass).resolveCalls == 0)
    }

    @Test func threadsMeetingANewClassAtOnceAllCompleteAndInjectIt() {
        container.register(.unique) { LearnedConcurrently() }
        container.register(.unique) { Peer() }

        DispatchQueue.concurrentPerform(iterations: 8) { [container, log] _ in
            let instance = try? container.resolve() as LearnedConcurrently
            log.record(instance?.resolveCalls == 1 && instance?.peer != nil ? "completed" : "missed")
        }

        #expect(log.count(of: "completed") == 8)
    }
}
