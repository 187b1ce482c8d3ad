import Foundation
import Plexus

// Helpers shared by the test files. Fixture types (the things under test) stay in the files that use them.

/// A thread-safe counter, for counting factory calls and the like from any thread.
// `@unchecked Sendable` is safe: `value` is only read or written while holding `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The number of increments so far.
    var count: Int { lock.withLock { value } }

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A thread-safe, append-only collection of values gathered from several threads.
// `@unchecked Sendable` is safe: `items` is only read or written while holding `lock`.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []

    /// A snapshot of the values appended so far, in append order.
    var values: [Value] { lock.withLock { items } }

    /// Appends `value`.
    func append(_ value: Value) {
        lock.withLock { items.append(value) }
    }

    /// The element at `index` modulo the current count (so any index is valid), or `nil` while empty.
    func element(wrapping index: Int) -> Value? {
        lock.withLock { items.isEmpty ? nil : items[index % items.count] }
    }
}

/// A thread-safe log of strings, in the order they were appended.
// `@unchecked Sendable` is safe: `items` is only read or written while holding `lock`.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    /// A snapshot of the entries appended so far, in append order.
    var entries: [String] { lock.withLock { items } }

    /// Appends `entry`.
    func append(_ entry: String) {
        lock.withLock { items.append(entry) }
    }

    /// A Plexus logger that appends each message's text.
    var logger: @Sendable (LogLevel, Any) -> Void {
        { [self] _, message in append("\(message)") }
    }

    /// How many entries equal `entry`.
    func count(of entry: String) -> Int { entries.filter { $0 == entry }.count }
}

/// Runs `body(index)` for `index` in `0..<count`, each on its own `Thread`, releasing them all together once every
/// thread has started. Every wait is bounded by `timeout` seconds, so a deadlock fails the caller instead of hanging.
/// Each thread checks in at `started` (if given) just before `body`, so that a factory can hold its first call until
/// every thread is on its way (`started.waitForEveryone()`). Returns `false` if the threads did not all finish within
/// `timeout` of being released.
func runOnThreads(
    _ count: Int, timeout: TimeInterval = 30, started: Rendezvous? = nil, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let ready = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread(
            block: quiet {
                ready.signal()
                _ = start.wait(timeout: .now() + timeout)
                started?.checkIn()
                body(index)
                group.leave()
            })
        thread.start()
    }
    for _ in 0..<count { _ = ready.wait(timeout: .now() + timeout) }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + timeout) == .success
}

/// Runs one writer and `readers` reader threads for 3,000 rounds each (see `runOnThreads`): the writer calls
/// `write(round)` every 64th round and yields between, so that reads without a container's lock (its reader bias)
/// happen between the writes; the readers call `read(round)` every round. Returns `false` on a timeout.
///
/// Alone this takes a fraction of a second, but each of the writer's yields waits for every other runnable thread:
/// beside the rest of the suite on a loaded 2-core machine it can take tens of seconds without being stuck, so the
/// bound is two minutes (five under a sanitizer), not `runOnThreads`' default.
func runReadersAndAWriter(
    readers: Int = 2, write: @escaping @Sendable (Int) -> Void, read: @escaping @Sendable (Int) -> Void
) -> Bool {
    runOnThreads(readers + 1, timeout: isSanitized ? 300 : 120) { index in
        for round in 0..<3_000 {
            guard index == 0 else {
                read(round)
                continue
            }
            if round.isMultiple(of: 64) { write(round) } else { sched_yield() }
        }
    }
}

/// `body`, logging nothing from Plexus on whatever thread runs it. A test's task-local silencing
/// (`.silencingPlexusLogs`) does not reach threads started with `Thread` or `DispatchQueue`, which log with the
/// process-wide settings; tests wrap the bodies of the threads they start in this instead.
func quiet(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    { Plexus.withLogging(level: .none, body) }
}

/// Whether this test binary runs under AddressSanitizer, whose quarantine keeps freed memory resident (so memory
/// figures mean nothing there).
let isAddressSanitized = linksSymbol("__asan_init")

/// Whether this test binary runs under a sanitizer (Address or Thread), which makes deep recursion and every
/// allocation many times slower.
let isSanitized = isAddressSanitized || linksSymbol("__tsan_init")

/// Seconds after which an async stress test counts as hung: a minute, five under a sanitizer, where the whole suite
/// runs several times slower and tests that block their thread can keep the two cooperative threads of a 2-core
/// machine busy for over a minute (each of these tests alone finishes in seconds).
let hangLimit = isSanitized ? 300 : 60

/// Whether the process has the symbol `name` (a sanitizer runtime's entry point, for example).
private func linksSymbol(_ name: String) -> Bool {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(process) }
    return dlsym(process, name) != nil
}

/// A meeting point for `parties` threads: each `arrive()` returns once every party has arrived, so a test can hold
/// a factory until another thread is inside its own (two claims certainly held at once). Every wait is bounded, so
/// a party that never comes fails the test instead of hanging it.
// `@unchecked Sendable` is safe: `arrived` is only read or written while holding `condition`.
final class Rendezvous: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    /// A meeting point for `parties` arrivals.
    init(_ parties: Int) {
        self.parties = parties
    }

    /// Arrives and waits for the other parties; `false` if they did not all arrive within `timeout` seconds.
    @discardableResult
    func arrive(timeout: TimeInterval = 10) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties {
            condition.broadcast()
            return true
        }
        return waitForEveryoneLocked(timeout: timeout)
    }

    /// Counts an arrival without waiting: for a party that must go on (a thread about to resolve what another
    /// holds), while someone else waits for everyone.
    func checkIn() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties { condition.broadcast() }
    }

    /// Waits without arriving until every party has arrived; `false` if they did not within `timeout` seconds.
    @discardableResult
    func waitForEveryone(timeout: TimeInterval = 10) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return waitForEveryoneLocked(timeout: timeout)
    }

    private func waitForEveryoneLocked(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}

/// Suspends until a Dispatch thread resumes the task: a real suspension (unlike a yield, which may continue at once),
/// after which the task may run on another thread, without timing anything.
func resumedFromAnotherThread() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume() }
    }
}

/// A countdown that tasks await without blocking a thread: `wait()` returns once `arrive()` has been called `count`
/// times (a gate opened once, for `count` 1). It lets an async factory hold on until the other tasks are asking.
// `@unchecked Sendable` is safe: `remaining` and `waiters` are only read or written while holding `lock`.
final class AsyncCountdown: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// A countdown from `count`.
    init(_ count: Int = 1) {
        remaining = count
    }

    /// Counts one arrival; the last one resumes every waiting task.
    func arrive() {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            remaining -= 1
            guard remaining == 0 else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in ready { waiter.resume() }
    }

    /// Suspends until every arrival has been counted.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isDone = lock.withLock {
                if remaining <= 0 { return true }
                waiters.append(continuation)
                return false
            }
            if isDone { continuation.resume() }
        }
    }
}
