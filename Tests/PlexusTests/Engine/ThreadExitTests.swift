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
/// Signalled by the destructor once it has finished, successful or not.
private let destructorRan = DispatchSemaphore(value: 0)

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
            destructorRan.signal()
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
        // The destructors run after the thread's body; wait for this one.
        #expect(destructorRan.wait(timeout: .now() + 10) == .success)
        #expect(resolvedAtExit.count == 3)
        #expect((try container.resolve() as Part?) != nil)
    }

    @Test func moreThreadsThanReaderSlotsAllResolveCorrectly() throws {
        // A thread reads without the lock in a reader slot of its own (64 in all); threads beyond that read under the
        // lock, and a thread that ends gives its slot back. Two waves of 80 threads, each resolving a published
        // singleton and a new instance many times while a writer registers now and then.
        let container = DependencyContainer()
        container.register(.singleton) { Part() }
        container.register(.unique, tag: "new") { Part() }
        let expected: Part = try container.resolve()
        let failures = Collected<String>()
        for wave in 0..<2 {
            let finished = runOnThreads(80) { index in
                for round in 0..<200 {
                    if index == 0, round.isMultiple(of: 50) { container.register(tag: "extra \(wave) \(round)") { 0 } }
                    do {
                        let part: Part = try container.resolve()
                        if part !== expected { failures.append("another singleton") }
                        _ = try container.resolve(tag: "new") as Part
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
            #expect(finished)
        }
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }
}
