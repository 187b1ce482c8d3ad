import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Heavy: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// Work long enough that threads really overlap on two cores.
private func work() {
    var total = 0
    for index in 0..<200_000 { total &+= index }
    withExtendedLifetime(total) {}
}

/// Counts the default factory calls of the accessors below, per container (they are fresh per test).
private let defaultCalls = PerContainerCounts()

/// A lock-protected map from container identity to a count.
private final class PerContainerCounts: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `counts` is only touched while holding `lock`.
    private let lock = NSLock()
    private var counts: [ObjectIdentifier: Int] = [:]

    func increment(_ container: DependencyContainer) -> Int {
        lock.withLock {
            counts[ObjectIdentifier(container), default: 0] += 1
            return counts[ObjectIdentifier(container), default: 0]
        }
    }

    func count(_ container: DependencyContainer) -> Int {
        lock.withLock { counts[ObjectIdentifier(container), default: 0] }
    }
}

extension DependencyContainer {
    fileprivate var heavySingleton: Factory<Heavy> {
        self {
            work()
            return Heavy(serial: defaultCalls.increment(self))
        }
        .singleton
    }
    fileprivate var heavyCached: Factory<Heavy> {
        self {
            work()
            return Heavy(serial: defaultCalls.increment(self))
        }
        .cached
    }
    fileprivate var heavyUnique: Factory<Heavy> { self { Heavy(serial: 0) } }
    fileprivate var heavyShared: Factory<Heavy> { self { Heavy(serial: 7) }.singleton }
}

@Suite(.silencingPlexusLogs) struct AccessorConcurrencyTests {
    @Test func singletonAccessorIsMadeOnceUnderContention() {
        let container = DependencyContainer()
        let resolved = Collected<Heavy>()
        let finished = runOnThreads(8) { _ in resolved.append(container.heavySingleton()) }
        #expect(finished)
        #expect(defaultCalls.count(container) == 1)
        #expect(Set(resolved.values.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func cachedAccessorIsMadeOnceUnderContentionThroughACollaborator() {
        let module = DependencyContainer()
        let container = DependencyContainer()
        container.collaborate(with: module)
        let resolved = Collected<Heavy>()
        let finished = runOnThreads(8) { _ in resolved.append(container.heavyCached()) }
        #expect(finished)
        #expect(defaultCalls.count(container) == 1)
        #expect(Set(resolved.values.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func overridesAndResolvesFromManyThreadsStayConsistent() {
        let container = DependencyContainer()
        let finished = runOnThreads(8) { index in
            for round in 0..<50 {
                if index.isMultiple(of: 2) {
                    container.heavySingleton.replace { Heavy(serial: -round) }
                } else {
                    let first = container.heavySingleton()
                    #expect(first.serial <= 1)
                }
            }
        }
        #expect(finished)
    }

    @Test func accessorsReadWithoutTheLockNeverSeeAChangeInProgress() {
        // Accessors used before are answered by a read without the container's lock (its reader bias) while a writer
        // replaces them, registers plain definitions and resets: every read gets the default's or an override's
        // instance, never a torn or released one.
        let container = DependencyContainer()
        let failures = Collected<String>()
        let finished = runReadersAndAWriter { round in
            switch round % 3 {
            case 0: container.heavyUnique.replace { Heavy(serial: round) }
            case 1: container.reset()
            default: container.register { Heavy(serial: -1) }
            }
        } read: { _ in
            let unique = container.heavyUnique()
            if !(0..<3_000).contains(unique.serial) { failures.append("unique \(unique.serial)") }
            let shared = container.heavyShared()
            if shared.serial != 7 { failures.append("singleton \(shared.serial)") }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func anAccessorAnsweredByACollaboratorsOverrideNeverSeesAChangeThereInProgress() {
        // The app's accessor, answered by the module's override, is followed on the fast path under the module's
        // reader bias while a writer replaces the override, removes it, and releases the module's singleton: every
        // read gets the default's instance or an override's (the serials say which). A released one would not show in
        // a serial: that is for the sanitizers (CI runs this test under ThreadSanitizer and AddressSanitizer).
        let module = DependencyContainer()
        let container = DependencyContainer()
        container.collaborate(with: module)
        let failures = Collected<String>()
        let finished = runReadersAndAWriter { round in
            switch round % 3 {
            case 0: module.heavyShared.replace { Heavy(serial: round) }
            case 1: module.heavyUnique.replace { Heavy(serial: -round) }
            default: module.reset()
            }
        } read: { _ in
            let shared = container.heavyShared()
            if shared.serial != 7, !(0..<3_000).contains(shared.serial) {
                failures.append("singleton \(shared.serial)")
            }
            let unique = container.heavyUnique()
            if !(-3_000...0).contains(unique.serial) { failures.append("unique \(unique.serial)") }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func anAccessorResolvedWhileTheContainerIsResetAlwaysFindsItsDeclaredDefault() {
        // A reset drops the declared defaults; an accessor resolved meanwhile registers its default again, also when
        // resets keep falling between that registration and the lookup that follows it (it failed with
        // `definitionNotFound` there, a crash for `callAsFunction()`, for a run of resets when the resetting thread and
        // the resolving one took the lock in turns). The default is registered in the lock section that takes it. The resetting thread resets until both resolvers are done.
        let container = DependencyContainer()
        let failures = Collected<String>()
        let done = Collected<Int>()
        let finished = runOnThreads(3) { index in
            guard index > 0 else {
                while done.values.count < 2 { container.reset() }
                return
            }
            for _ in 0..<5_000 {
                do {
                    if try container.heavyShared.resolve().serial != 7 { failures.append("wrong instance") }
                } catch {
                    failures.append("\(error)")
                }
            }
            done.append(index)
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func lazyInjectResolvesOnceUnderContention() {
        // `@unchecked Sendable` is safe: the wrapper's storage is assigned once in `init` and never again, and
        // `LazyInject` itself is thread-safe (that is what this test checks).
        final class Holder: @unchecked Sendable {
            @LazyInject var heavy: Heavy
            init(container: DependencyContainer) {
                _heavy = LazyInject(\.heavyUnique, container: container)
            }
        }
        let container = DependencyContainer()
        let counter = Counter()
        container.heavyUnique.replace {
            work()
            return Heavy(serial: counter.increment())
        }
        let holder = Holder(container: container)
        let seen = Collected<Int>()
        let finished = runOnThreads(8) { _ in seen.append(holder.heavy.serial) }
        #expect(finished)
        #expect(counter.count == 1)
        #expect(Set(seen.values) == [1])
    }
}
