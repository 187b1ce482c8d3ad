import Foundation
import Plexus
import PlexusFactoryKit
import Testing

// A declaration read before is found in the index of the Plexus container that keeps it, without the resolution
// lock. Each test reads a declaration until the index answers it, changes something the next read must see, and
// reads again.

private final class Arcade: ManagedContainer {
    let manager = ContainerManager()
    let made = Tally()
    /// While set, `holder` waits for it inside its factory, holding the resolution lock.
    let gate = Gate()

    var token: PlexusFactoryKit.Factory<Ticket> { self { Ticket(number: 1) } }
    var prize: PlexusFactoryKit.Factory<Ticket> { self { Ticket(number: self.made.increment()) }.cached }
    var counter: PlexusFactoryKit.ParameterFactory<Int, Ticket> { self { Ticket(number: $0) }.cached }
    var holder: PlexusFactoryKit.Factory<Ticket> {
        self {
            self.gate.passThrough()
            return Ticket()
        }
    }
}

/// A second container type declaring a property of the same name and type.
private final class Fairground: ManagedContainer {
    let manager = ContainerManager()
    var prize: PlexusFactoryKit.Factory<Ticket> { self { Ticket(number: -1) }.cached }
}

/// A container whose singleton is decorated by its auto-registration, or not.
private final class Vault: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    let decorated: Bool
    let seen = Tally()
    var key: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.singleton }

    init(decorated: Bool) { self.decorated = decorated }

    func autoRegister() {
        guard decorated else { return }
        key.decorator { _ in self.seen.increment() }
    }
}

/// One declaration per scope property, each also declared `once()`: their values read the index with every read word.
private final class Booth: ManagedContainer {
    let manager = ContainerManager()
    var cached: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.cached }
    var graph: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.graph }
    var shared: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.shared }
    var boothSingleton: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.singleton }
    var unique: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.unique }
    var cachedOnce: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.cached.once() }
    var graphOnce: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.graph.once() }
    var sharedOnce: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.shared.once() }
    var boothSingletonOnce: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.singleton.once() }
    var uniqueOnce: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.unique.once() }
}

/// Holds whoever passes through while closed: signals `entered`, then waits for `open()`.
// `@unchecked Sendable` is safe: `closed` is only read or written while holding `lock`; the semaphores are
// thread-safe.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false
    let entered = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    func close() { lock.withLock { closed = true } }

    func open() {
        lock.withLock { closed = false }
        opened.signal()
    }

    func passThrough() {
        guard lock.withLock({ closed }) else { return }
        entered.signal()
        opened.wait()
    }
}

/// Reads `arcade.token` and `arcade.prize` enough times for the index to answer them.
private func readOften(_ arcade: Arcade) {
    for _ in 0..<3 {
        #expect(arcade.token().number == 1)
        _ = arcade.prize()
    }
}

@Suite struct DeclarationIndexTests {
    private let arcade = Arcade()

    @Test func aDefinitionRegisteredWhileAReadWaitsForTheLockAnswersThatRead() {
        // Read until both are made directly; nothing the product keeps changes after that.
        for _ in 0..<3 { _ = arcade.holder() }
        readOften(arcade)
        for _ in 0..<3 { _ = arcade.holder() }
        // Another thread holds the resolution lock, inside `holder`'s factory.
        arcade.gate.close()
        let holding = Thread { _ = self.arcade.holder() }
        holding.start()
        arcade.gate.entered.wait()
        // A read that the index answers "make it directly" then waits for that lock: the container's definitions
        // change meanwhile, and the read must see it once it has the lock.
        let reader = Locked<pthread_t?>(nil)
        let waiting = DispatchSemaphore(value: 0)
        let observation = EngineTestHooks.observeLockWaits {
            if let thread = reader.exchange(nil) {
                if pthread_equal(thread, pthread_self()) != 0 { waiting.signal() } else { _ = reader.exchange(thread) }
            }
        }
        defer { observation.stop() }
        let read = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let reading = Thread {
            _ = reader.exchange(pthread_self())
            _ = read.exchange(self.arcade.token().number)
            done.signal()
        }
        reading.start()
        waiting.wait()
        arcade.manager.plexus.register(tag: "Arcade.token") { Ticket(number: 2) }
        arcade.gate.open()
        done.wait()
        #expect(read.exchange(0) == 2)
    }

    @Test func aTimeToLiveSetAfterKeptReadsApplies() {
        readOften(arcade)
        let kept = arcade.prize()
        _ = arcade.prize.timeToLive(0)
        // The first read after it starts the instance's clock; the next finds it expired.
        _ = arcade.prize()
        #expect(arcade.prize() !== kept)
    }

    @Test func aScopePerArgumentSetAfterKeptReadsApplies() {
        #expect(arcade.counter(1).number == 1)
        #expect(arcade.counter(2).number == 1)
        _ = arcade.counter.scopeOnParameters
        #expect(arcade.counter(2).number == 2)
    }

    @Test func aKeptOverrideIsReadAgain() {
        readOften(arcade)
        arcade.prize.register { Ticket(number: 100) }
        let kept = arcade.prize()
        #expect(kept.number == 100)
        for _ in 0..<3 { #expect(arcade.prize() === kept) }
    }

    @Test func aResetOfThePlexusContainerAfterKeptReadsMakesANewInstance() {
        readOften(arcade)
        let kept = arcade.prize()
        arcade.manager.plexus.reset()
        #expect(arcade.prize() !== kept)
    }

    @Test func aRestoredSnapshotAfterKeptReadsIsWhatTheNextReadSees() {
        let snapshot = arcade.manager.plexus.snapshot()
        readOften(arcade)
        let kept = arcade.prize()
        arcade.manager.plexus.restore(snapshot)
        #expect(arcade.prize() !== kept)
    }

    @Test func aSingletonKeptReadIsAnsweredByItsContainersOwnIndex() {
        Scope.$singleton.withValue(Scope.singleton.clone()) {
            let first = Vault(decorated: false)
            let kept = first.key()
            for _ in 0..<3 { #expect(first.key() === kept) }
            // Another manager's declaration of the same singleton, decorated: same instance, its decorator every time.
            let second = Vault(decorated: true)
            for _ in 0..<3 { #expect(second.key() === kept) }
            #expect(second.seen.count == 3)
        }
    }

    @Test func aReleasedManagersSingletonItemsAnswerNoNewManager() {
        // A new manager may get a released one's address, by which the singleton scope's container keeps items.
        Scope.$singleton.withValue(Scope.singleton.clone()) {
            for round in 0..<40 {
                let vault = Vault(decorated: round % 2 == 1)
                for _ in 0..<3 { _ = vault.key() }
                #expect(vault.seen.count == (vault.decorated ? 3 : 0))
            }
        }
    }

    @Test func everyScopePropertyWithAndWithoutOnceIsReadAsItsScopeSays() {
        Scope.$singleton.withValue(Scope.singleton.clone()) {
            let booth = Booth()
            let reads: [(String, () -> Ticket, keeps: Bool)] = [
                ("cached", { booth.cached() }, true), ("graph", { booth.graph() }, false),
                ("shared", { booth.shared() }, true), ("singleton", { booth.boothSingleton() }, true),
                ("unique", { booth.unique() }, false), ("cached once", { booth.cachedOnce() }, true),
                ("graph once", { booth.graphOnce() }, false), ("shared once", { booth.sharedOnce() }, true),
                ("singleton once", { booth.boothSingletonOnce() }, true),
                ("unique once", { booth.uniqueOnce() }, false),
            ]
            for (name, read, keeps) in reads {
                // The first value is held: a `.shared` instance is kept while something holds it.
                let first = read()
                for _ in 0..<4 { #expect((read() === first) == keeps, "\(name)") }
            }
            // A value naming another scope than the declaration's applies it: the kept instance is not its answer,
            // and a value naming the first scope again applies that one.
            let kept = booth.cached()
            #expect(booth.cached.unique() !== kept)
            #expect(booth.cached.unique() !== booth.cached.unique())
            let keptAgain = booth.cached()
            #expect(booth.cached() === keptAgain)
        }
    }

    @Test func twoContainerTypesWithTheSameDeclarationKeepTheirOwnInstances() {
        let fairground = Fairground()
        readOften(arcade)
        for _ in 0..<3 { #expect(fairground.prize().number == -1) }
        #expect(arcade.prize().number == 1)
        #expect(arcade.made.count == 1)
    }
}
