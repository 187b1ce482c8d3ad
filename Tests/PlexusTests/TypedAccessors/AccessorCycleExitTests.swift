import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Egg: Sendable {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}
private final class Chicken: Sendable {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

private final class Tally: Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}

/// Reads its `@LazyInject` property, whose accessor's factory reads it again (through `LazyCycle.current`).
// `@unchecked Sendable`: only read inside the exit test's child process, on one thread.
private final class LazyCycle: @unchecked Sendable {
    nonisolated(unsafe) static var current: LazyCycle?
    @LazyInject var tally: Tally
    init(container: DependencyContainer) { _tally = LazyInject(\.lazyTally, container: container) }
}

/// Two holders whose lazy properties' accessors read each other's property, once both accessors' factories have started
/// (`crossFactoriesEntered`), so two threads certainly run both first reads at once.
// `@unchecked Sendable`: only used inside the exit test's child process; the wrappers are thread-safe.
private final class CrossLazy: @unchecked Sendable {
    nonisolated(unsafe) static var left: CrossLazy?
    nonisolated(unsafe) static var right: CrossLazy?
    @LazyInject var tally: Tally
    init(_ accessor: KeyPath<DependencyContainer, Factory<Tally>>, container: DependencyContainer) {
        _tally = LazyInject(accessor, container: container)
    }
}

/// Holds each of `CrossLazy`'s factories until the other has started.
private let crossFactoriesEntered = Rendezvous(2)

extension DependencyContainer {
    fileprivate var leftTally: Factory<Tally> {
        self {
            crossFactoriesEntered.arrive()
            return Tally(value: (CrossLazy.right?.tally.value ?? 0) + 1)
        }
    }
    fileprivate var rightTally: Factory<Tally> {
        self {
            crossFactoriesEntered.arrive()
            return Tally(value: (CrossLazy.left?.tally.value ?? 0) + 1)
        }
    }
    fileprivate var lazyTally: Factory<Tally> { self { Tally(value: (LazyCycle.current?.tally.value ?? 0) + 1) } }
    fileprivate var needsMissing: Factory<Tally> { self { Tally(value: try self.resolve()) } }
    fileprivate var egg: Factory<Egg> { self { Egg(chicken: self.chicken()) } }
    fileprivate var chicken: Factory<Chicken> { self { Chicken(egg: self.egg()) }.singleton }
}

/// `callAsFunction()` does not throw; a cycle stops the process, in release builds too, naming the path.
/// Each test runs in a child process (an exit test).
@Suite(.silencingPlexusLogs) struct AccessorCycleExitTests {
    @Test func callingAnAccessorInACycleStopsTheProcessNamingThePath() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            _ = DependencyContainer().egg()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency between typed accessors"))
        #expect(message.contains("DependencyContainer.egg"))
        #expect(message.contains("DependencyContainer.chicken"))
        #expect(message.contains(".resolvingProperties"))
        #expect(message.contains("at every call on the path"))
    }

    /// Factory style: the accessors call each other with `self.other()` in their factories, so the outer `try …
    /// resolve()` never sees the error; the message says that every call on the path must use `resolve()`.
    @Test func anAccessorCycleUnderAnOuterResolveSaysEveryCallMustThrow() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            _ = try? DependencyContainer().egg.resolve()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency between typed accessors"))
        #expect(message.contains("inside factories too"))
    }

    /// A failure whose description ends a sentence is not followed by a second period.
    @Test func aFailedAccessorSaysSoInWholeSentences() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            _ = DependencyContainer().needsMissing()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("could not resolve"))
        #expect(!message.contains(".."))
    }

    /// Two lazy properties whose accessors read each other, first read on two threads at once: a cycle, which stops
    /// the process naming it. Each first read used to hold its property's lock while the accessor ran, and the two
    /// threads waited for each other for ever.
    @Test func lazyPropertiesReadFromEachOthersFactoriesOnTwoThreadsStopInsteadOfHanging() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let container = DependencyContainer()
            CrossLazy.left = CrossLazy(\.leftTally, container: container)
            CrossLazy.right = CrossLazy(\.rightTally, container: container)
            let otherFinished = DispatchSemaphore(value: 0)
            let other = Thread {
                _ = CrossLazy.right?.tally
                otherFinished.signal()
            }
            other.start()
            _ = CrossLazy.left?.tally
            // Deadline, not a pause: the cycle stops the process before this returns; if the other thread's read
            // finished instead, the process exits normally and the test fails.
            _ = otherFinished.wait(timeout: .now() + 5)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency"))
        #expect(message.contains("@LazyInject"))
    }

    /// A read of a `@LazyInject` property on the thread whose first read is resolving it: a cycle, which stops the
    /// process naming the accessor (it used to wait for itself for ever).
    @Test func readingALazyInjectPropertyInsideItsOwnResolveStopsTheProcess() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let holder = LazyCycle(container: DependencyContainer())
            LazyCycle.current = holder
            _ = holder.tally
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency"))
        #expect(message.contains("DependencyContainer.lazyTally"))
    }

}
