import Foundation
import Plexus
import Swinject

extension Scenario {
    /// `threads` threads resolving the same singleton at once, `count` times each; compare the time per resolve
    /// (wall time over all resolves) of 2 threads with 1 for the throughput gain. The threads are started when the
    /// scenario is prepared (even the single one, so both variants pay the same hand-over).
    static func singletonThreads(_ threads: Int) -> Scenario {
        Scenario(
            id: "threads-\(threads)",
            title: "singleton hit, \(threads) thread\(threads == 1 ? "" : "s") (per resolve)",
            threads: threads
        ) { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                let holder = Holder(ApiClient())
                let workers = Workers(count: threads) { count in
                    for _ in 0..<count { blackHole(holder.value) }
                }
                return Runner(workers.run)
            case .swinject:
                let container = Swinject.Container()
                container.register(ApiClient.self) { _ in ApiClient() }.inObjectScope(.container)
                let resolver = SynchronizedResolver(container.synchronize())
                _ = resolver.resolver.resolve(ApiClient.self)
                let workers = Workers(count: threads) { count in
                    for _ in 0..<count { blackHole(resolver.resolver.resolve(ApiClient.self)!) }
                }
                return Runner(note: "through `container.synchronize()`, Swinject's thread-safe resolver", workers.run)
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                _ = try? container.resolve() as ApiClient
                let workers = Workers(count: threads) { count in
                    for _ in 0..<count { blackHole(try container.resolve() as ApiClient) }
                }
                return Runner(workers.run)
            }
        }
    }

    /// `threads` threads resolving singletons at once, each its own (thread 0 an ``ApiClient``, thread 1 a ``Router``,
    /// both published) from one container: what the container's own shared state (its lock) allows when the threads
    /// do not also write the reference count of one instance. Compare 2 threads with 1 for the throughput gain.
    static func ownSingletonThreads(_ threads: Int) -> Scenario {
        Scenario(
            id: "own-singleton-threads-\(threads)",
            title: "a singleton per thread, \(threads) thread\(threads == 1 ? "" : "s") (per resolve)",
            threads: threads, contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let holders = (RetainingHolder(ApiClient()), RetainingHolder(ApiClient()))
                let workers = Workers(count: threads) { count, index in
                    let holder = index == 0 ? holders.0 : holders.1
                    for _ in 0..<count { blackHole(holder.instance().takeRetainedValue()) }
                }
                return Runner(note: "a getter returning its own instance retained, per thread", workers.run)
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                container.register(.singleton) { Router() }
                _ = try? container.resolve() as ApiClient
                _ = try? container.resolve() as Router
                let workers = Workers(count: threads) { count, index in
                    if index == 0 {
                        for _ in 0..<count { blackHole(try container.resolve() as ApiClient) }
                    } else {
                        for _ in 0..<count { blackHole(try container.resolve() as Router) }
                    }
                }
                return Runner(workers.run)
            }
        }
    }

    /// `threads` threads each getting the same shared instance from a hand-written getter that returns it retained,
    /// as every resolve does (the hand-written singleton baseline, made safe to share): what the reference count of one object
    /// written by both threads allows, whatever the container. Hand-written only.
    static func retainedInstanceThreads(_ threads: Int) -> Scenario {
        Scenario(
            id: "retained-threads-\(threads)",
            title: "shared instance retained by hand, \(threads) thread\(threads == 1 ? "" : "s") (per get)",
            threads: threads, contenders: [.hand]
        ) { contender in
            guard contender == .hand else { return nil }
            let holder = RetainingHolder(ApiClient())
            let workers = Workers(count: threads) { count in
                for _ in 0..<count { blackHole(holder.instance().takeRetainedValue()) }
            }
            return Runner(workers.run)
        }
    }
}

/// Swinject's resolver returned by `synchronize()`.
///
/// `@unchecked Sendable` is sound: `synchronize()` returns a container whose every resolve takes Swinject's
/// recursive lock, which is what Swinject documents for use from several threads; nothing registers on it.
private final class SynchronizedResolver: @unchecked Sendable {
    let resolver: Resolver

    init(_ resolver: Resolver) {
        self.resolver = resolver
    }

}

/// A shared instance behind a getter that returns it retained (the caller releases it), as a resolve's result is.
/// The retain is explicit: the optimizer turns a plain `-> ApiClient` getter into one that returns it unretained.
private final class RetainingHolder: Sendable {
    private let stored: ApiClient

    init(_ instance: ApiClient) {
        stored = instance
    }

    @inline(never)
    func instance() -> Unmanaged<ApiClient> { Unmanaged.passUnretained(stored).retain() }
}

/// The workers of ``Workers`` did not finish in time (a deadlock, or a machine far too busy).
struct WorkersTimedOut: Error {}

/// Threads started once, when a scenario is prepared, that perform a batch of work together on request, so that
/// starting threads is not part of what is measured.
package final class Workers: Sendable {
    private let shared: WorkerState
    private let count: Int

    /// Starts `count` threads that each run `work(operations)` for every batch.
    package convenience init(count: Int, work: @escaping @Sendable (Int) throws -> Void) {
        self.init(count: count) { operations, _ in try work(operations) }
    }

    /// Starts `count` threads that each run `work(operations, index)` for every batch, `index` being the thread's
    /// number, from 0.
    package init(count: Int, work: @escaping @Sendable (_ operations: Int, _ index: Int) throws -> Void) {
        self.count = count
        shared = WorkerState()
        for index in 0..<count {
            let shared = shared
            Thread {
                while true {
                    shared.start.wait()
                    guard let operations = shared.operations else { return }
                    do { try work(operations, index) } catch { shared.record(error) }
                    shared.done.signal()
                }
            }
            .start()
        }
    }

    deinit {
        shared.operations = nil
        for _ in 0..<count { shared.start.signal() }
    }

    /// Lets every thread perform `operations` operations, and returns when all finished. Fails instead of hanging
    /// if they do not finish within a minute.
    package func run(_ operations: Int) throws {
        shared.operations = operations
        for _ in 0..<count { shared.start.signal() }
        for _ in 0..<count {
            guard shared.done.wait(timeout: .now() + 60) == .success else { throw WorkersTimedOut() }
        }
        if let error = shared.takeError() { throw error }
    }
}

/// What ``Workers`` share with their threads.
///
/// `@unchecked Sendable` is sound: `operations` is written by the controlling thread only while every worker
/// waits on `start`, and read by the workers only after `start` was signalled (the semaphore orders the accesses);
/// `error` is only touched while `lock` is held.
private final class WorkerState: @unchecked Sendable {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    var operations: Int? = 0
    private let lock = NSLock()
    private var error: (any Error)?

    func record(_ error: any Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    func takeError() -> (any Error)? {
        lock.withLock {
            defer { error = nil }
            return error
        }
    }
}
