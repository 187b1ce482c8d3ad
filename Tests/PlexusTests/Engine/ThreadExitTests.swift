import Foundation
import Plexus
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

private final class Part: Sendable {}

/// What the thread-exit destructor below resolves from, and how often it succeeded. A C destructor captures
/// nothing, so these are globals; `nonisolated(unsafe)` is safe for the container: the test sets it before the
/// thread starts (`Thread.start` orders the accesses). `Counter` is thread-safe.
nonisolated(unsafe) private var exitContainer: DependencyContainer?
private let resolvedAtExit = Counter()

@Suite struct ThreadExitTests {
    @Test func aResolveMadeWhileTheThreadExitsGetsAGraphOfItsOwn() throws {
        // A thread's graph is released by its pthread key's destructor when the thread exits. Another key's
        // destructor may resolve after that one ran: it must start a new graph (released in turn), never use the
        // released one. (AddressSanitizer reports a use after free if it does.)
        let container = DependencyContainer()
        container.register { Part() }
        exitContainer = container
        var key = pthread_key_t()
        pthread_key_create(&key) { _ in
            for _ in 0..<3 where (try? exitContainer?.resolve() as Part?) != nil { resolvedAtExit.increment() }
        }
        defer { pthread_key_delete(key) }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread { [key] in
            // The thread's graph exists before the key's value is set, so its destructor can run first.
            _ = try? container.resolve() as Part
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
            finished.signal()
        }
        thread.start()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // The destructors run after the thread's body; wait for them.
        let deadline = Date().addingTimeInterval(10)
        while resolvedAtExit.count < 3, Date() < deadline { usleep(1_000) }
        #expect(resolvedAtExit.count == 3)
        #expect((try container.resolve() as Part?) != nil)
    }
}
