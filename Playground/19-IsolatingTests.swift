import Foundation
import Plexus

// Three ways to keep tests from seeing each other's overrides when the code under test reads
// `DependencyContainer.shared`: a fresh container per test (the `.container` trait of PlexusTesting), a task-local
// override (`withShared`), and snapshot/restore of a container you cannot replace.

private protocol Clock: AnyObject {
    var now: String { get }
}
private final class SystemClock: Clock {
    let now = "system time"
}
private final class FixedClock: Clock {
    let now = "09:00"
}

extension DependencyContainer {
    fileprivate var tourClock: Factory<Clock> { self { SystemClock() }.singleton }
}

/// Code under test: it reaches the shared container itself, as SDK-style code does.
private struct Greeter: HasSharedContainer {
    func greeting() -> String { "Good morning, it is \(container.tourClock().now)" }
}

@MainActor
func isolatingTests() throws {
    show(
        """
        In a Swift Testing target, the PlexusTesting trait gives each test a fresh shared container:
            @Test(.container { $0.tourClock.onTest { FixedClock() } })
            func greetsWithTheFixedTime() { #expect(Greeter().greeting().hasSuffix("09:00")) }
        It is withShared under the hood, shown next (the tour cannot import Testing).
        """)

    // 1. A task-local override: the block and the child tasks it starts see `container` as `shared`.
    let container = DependencyContainer(name: "test")
    container.tourClock.replace { FixedClock() }
    let inside = DependencyContainer.withShared(container) { Greeter().greeting() }
    show(inside)
    check(inside.hasSuffix("09:00"), "inside withShared, code reading DependencyContainer.shared sees the override")
    check(
        Greeter().greeting().hasSuffix("system time"),
        "outside the block the process-wide container is unchanged: nothing leaked")

    // Threads started with Thread or DispatchQueue are not child tasks: they see the process-wide container.
    let onThread = Locked("")
    DependencyContainer.withShared(container) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            onThread.update { $0 = Greeter().greeting() }
            done.signal()
        }
        .start()
        done.wait()
    }
    show(onThread.value)
    check(
        onThread.value.hasSuffix("system time"),
        "a Thread started inside withShared sees the process-wide container: pass it the container explicitly")

    // 2. Snapshot and restore: for a container the code under test holds itself (not replaceable per test).
    let app = DependencyContainer(name: "app")
    let real = app.tourClock()
    let snapshot = app.snapshot()
    app.tourClock.replace { FixedClock() }
    app.register { "a definition added by the test" }
    check(app.tourClock().now == "09:00", "after the test's override the app container answers the fixed clock")
    app.restore(snapshot)
    check(app.tourClock() === real, "restore brings back the overrides and the singletons of the snapshot")
    check(
        caught { try app.resolve() as String } != nil,
        "definitions registered after the snapshot are gone after restore")
    show(
        """
        Use the trait (or withShared) for code that reads DependencyContainer.shared: tests stay parallel.
        Use snapshot/restore for a container you cannot swap; it changes that container for every thread,
        so those tests run one at a time (.serialized).
        """)
}
