import Foundation

/// What the tour has checked so far. Only the main actor touches it: the chapters run one after another.
@MainActor
enum Tour {
    static var chapters = 0
    static var passed = 0
    static var failures: [String] = []
}

/// Runs one chapter under a heading. An error escaping the chapter counts as a failed check.
@MainActor
func chapter(_ title: String, _ body: () throws -> Void) {
    printHeading(title)
    do {
        try body()
    } catch {
        check(false, "the chapter ends without an unexpected error (it threw: \(error))")
    }
}

/// Runs one chapter that awaits (Swift concurrency) under a heading, as `chapter` does.
@MainActor
func chapter(_ title: String, _ body: () async throws -> Void) async {
    printHeading(title)
    do {
        try await body()
    } catch {
        check(false, "the chapter ends without an unexpected error (it threw: \(error))")
    }
}

/// Counts a new chapter and prints its numbered, underlined heading.
@MainActor
private func printHeading(_ title: String) {
    Tour.chapters += 1
    let heading = "\(Tour.chapters). \(title)"
    print("")
    print(heading)
    print(String(repeating: "=", count: heading.count))
}

/// Prints one fact of the tour and records whether it holds.
@MainActor
func check(_ condition: Bool, _ message: String) {
    if condition {
        Tour.passed += 1
        print("  ✓ \(message)")
    } else {
        Tour.failures.append("\(Tour.chapters). \(message)")
        print("  ✗ \(message)")
    }
}

/// Prints an explanation or a value the chapter shows, without checking anything.
func show(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        print("    \(line)")
    }
}

/// Runs `body` and returns the error it throws, or `nil` if it returns.
func caught<R>(_ body: () throws -> R) -> (any Error)? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Runs `body` on a new thread with a 512 KB stack (the size of secondary threads on Apple platforms) and returns
/// what it returned.
func onSmallStackThread<R: Sendable>(_ body: @escaping @Sendable () -> R) -> R? {
    let result = Locked<R?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.update { $0 = body() }
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return result.value
}

/// A value shared with `@Sendable` factories, which may run on any thread.
final class Locked<Value: Sendable>: @unchecked Sendable {  // safe: `value` is only read or written under `lock`
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        lock.withLock { storage }
    }

    func update<R>(_ change: (inout Value) -> R) -> R {
        lock.withLock { change(&storage) }
    }
}

extension Locked where Value == Int {
    /// Adds one; factories use it to count how often they run.
    func increment() {
        update { $0 += 1 }
    }
}
