import Foundation
import Plexus
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private final class Session: Sendable {}

/// Whether to run the fork test: only in a process of its own (`.ci/run` runs it alone, with this variable set). In
/// the parallel test run, other tests' threads may hold locks that Plexus does not own (the Swift runtime's) at the
/// moment of `fork`, and a child that needs one of them then waits for ever, whatever Plexus does.
private let forkTestsRequested = ProcessInfo.processInfo.environment["PLEXUS_FORK_TESTS"] != nil

// Sanitizers do not support `fork` in a process with threads well; the test runs in the plain builds.
@Suite(.enabled(if: forkTestsRequested && !isSanitized)) struct ForkTests {
    @Test func aForkedChildRegistersWhileTheParentWasResolving() {
        // A thread of the parent reads without the container's lock (its reader bias) when another forks: in the
        // child that thread does not exist, and its announcement must not make the child's first change wait for it.
        let container = DependencyContainer()
        container.register(.singleton) { Session() }
        container.register(.unique, tag: "u") { 2 }
        let stop = Collected<Bool>()
        let reading = DispatchSemaphore(value: 0)
        let reader = Thread {
            var isFirst = true
            while stop.values.isEmpty {
                _ = try? container.resolve() as Session
                _ = try? container.resolve(tag: "u") as Int
                if isFirst {
                    reading.signal()
                    isFirst = false
                }
            }
        }
        reader.start()
        defer { stop.append(true) }
        // The forks start once the reader is resolving.
        _ = reading.wait(timeout: .now() + 10)
        var hung = 0
        for _ in 0..<20 {
            let pid = fork()
            if pid == 0 {
                container.register(tag: "child") { 1 }
                _exit((try? container.resolve(tag: "child") as Int) == 1 ? 0 : 1)
            }
            var status: Int32 = 0
            var waited = 0
            // A deadline, not a pause: the child's exit is polled every 10 ms for at most 5 s.
            while waitpid(pid, &status, WNOHANG) == 0, waited < 500 {
                usleep(10_000)
                waited += 1
            }
            if waited >= 500 {
                hung += 1
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
        }
        #expect(hung == 0, "\(hung) of 20 children hung")
    }
}
