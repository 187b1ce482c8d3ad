internal import PlexusSystem

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one lock type of Plexus: a value that can only be read or changed while its lock is held.
///
/// The lock lives in the tail allocation of a `ManagedBuffer`, so it has a stable address (a pthread mutex or an
/// `os_unfair_lock` must never move). Plexus never calls user code while holding one of these locks.
///
/// With `readerBiased`, the hottest reads may skip the lock (`withBiasedRead`): a reader announces itself in a slot of
/// its own thread instead of writing the lock's memory, so readers on several threads share no written memory. Every
/// `withLock` first turns the bias off and waits until those readers are done (`plexus_bias_revoke`), so they never
/// see a change in progress; reads under the lock (`withLockKeepingReaders`) turn it back on after a while.
///
/// `@unchecked Sendable` is sound because the value is only changed inside `withLock`, which holds the mutex for the
/// whole access (the mutex orders every access after the previous one) and begins only once no read without the
/// lock is in progress (the reader slots and the bias are sequentially consistent C11 atomics; a reader's release
/// when it ends orders its reads before the change). `withLockKeepingReaders` and `withBiasedRead` only read, through
/// pointers, so any number of them may overlap.
final class Protected<Value>: @unchecked Sendable {
    private let buffer: LockBuffer<Value>
    /// The reader bias (PlexusSystem), or `nil` when every access takes the lock.
    private let bias: OpaquePointer?

    /// A lock around `value`. `Value` must not be of zero size: its storage would share the lock's address.
    init(_ value: Value, readerBiased: Bool = false) {
        buffer = LockBuffer.make(value)
        bias = readerBiased ? plexus_bias_create() : nil
    }

    deinit {
        if let bias { plexus_bias_destroy(bias) }
    }

    /// Runs `body` with exclusive access to the value. `body` must not call user code or take another
    /// `Protected` lock that could be held while waiting for this one.
    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try buffer.withLockedPointer { value in
            // Before the exclusive access to the value begins: readers without the lock may still be reading it.
            if let bias { plexus_bias_revoke(bias) }
            #if PLEXUS_CHECK_INVARIANTS
                defer { checkAfterChange(value.pointee) }
            #endif
            return try body(&value.pointee)
        }
    }

    /// Reads the value under the lock, through a pointer (no exclusive access): readers without the lock may go on
    /// meanwhile. `body` may change no part of the value (objects it refers to may change, if `withBiasedRead` bodies
    /// do not read what changes). Counts as a read under the lock, which turns the bias back on after a while.
    @inline(__always)
    func withLockKeepingReaders<R>(_ body: (UnsafePointer<Value>) throws -> R) rethrows -> R {
        try buffer.withLockedPointer { value in
            if let bias { plexus_bias_note_locked_read(bias) }
            return try body(UnsafePointer(value))
        }
    }

    #if PLEXUS_CHECK_INVARIANTS
        /// How many changes `withLock` made; only touched with the lock held.
        private var changes = 0

        /// Checks the value's invariants after a change, when a check is due (`Invariants`). Runs with the lock held.
        private func checkAfterChange(_ value: Value) {
            guard let checked = value as? any InvariantChecked else { return }
            changes += 1
            if Invariants.isDue(change: changes, size: checked.checkedSize) { checked.checkInvariants() }
        }
    #endif

    /// Runs `body` on the value without taking the lock, if the bias allows it; `nil` if not (then take the lock).
    /// `body` must only read, through the pointer and without copying the value (a copy retains its arrays, a write
    /// to memory that every reader shares): it runs while other readers do, and no writer runs until it returns.
    @inline(__always)
    func withBiasedRead<R>(_ body: (UnsafePointer<Value>) -> R) -> R? {
        guard let bias else { return nil }
        let slot = plexus_bias_read_begin(bias)
        guard slot >= 0 else { return nil }
        defer { plexus_bias_read_end(slot) }
        return buffer.withUnsafeMutablePointerToHeader { body(UnsafePointer($0)) }
    }

    /// Whether reads may skip the lock now (`withBiasedRead`): what `EngineTestHooks` reports to the engine's tests.
    var readsWithoutLock: Bool { bias.map { plexus_bias_is_on($0) != 0 } ?? false }
}

#if canImport(Darwin)
    typealias PlatformLock = os_unfair_lock
#else
    typealias PlatformLock = pthread_mutex_t
#endif

final class LockBuffer<Value>: ManagedBuffer<Value, PlatformLock> {
    static func make(_ value: Value) -> LockBuffer<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        // `create` called on a subclass allocates an instance of that subclass.
        let lockBuffer = unsafeDowncast(buffer, to: LockBuffer<Value>.self)
        lockBuffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                initializeMutex(lock)
            #endif
        }
        return lockBuffer
    }

    deinit {
        // ManagedBuffer destroys the header (the value) itself; the element (the lock) is ours.
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
                checkPThread(pthread_mutex_destroy(lock), "pthread_mutex_destroy")
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }

    /// Runs `body` with the lock held and a pointer to the value; the access to the value is the body's to begin.
    @inline(__always)
    func withLockedPointer<R>(_ body: (UnsafeMutablePointer<Value>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                checkPThread(pthread_mutex_lock(lock), "pthread_mutex_lock")
                defer { checkPThread(pthread_mutex_unlock(lock), "pthread_mutex_unlock") }
            #endif
            return try body(value)
        }
    }
}

/// The progress of one singleton construction, which other threads can wait on.
///
/// It moves from constructing to *value ready* (the factory returned; property hooks may still run) to *open*
/// (published or rolled back). A thread that finds that waiting would deadlock may *lend* a ready value to the
/// waiting graph on the cycle: that graph then stops waiting and uses the value before it is published, while
/// every other waiter still waits for the publication. A borrower finishes only together with the graph that lent
/// to it (`ResolutionGraph.finishTogether`): once the construction is published, or by throwing if it is rolled back.
final class ConstructionSignal: @unchecked Sendable {
    // `@unchecked Sendable`: the flags are only read and written while `mutex` is held, and the condition
    // variable is only used with that mutex; both live in heap memory allocated once and never moved.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var valueIsReady = false
    private var borrowers: Set<GraphID> = []
    private var isOpen = false
    /// Set when the construction ended without being published, with the error that ended it if there was one.
    private var rollback: Rollback?
    /// Whether the constructing graph keeps the construction open across an `await`: nothing may block on it.
    private var heldAcrossAwait = false
    /// Tasks suspended in `waitAsync`, with the graph each waits as.
    private var suspended: [(waiter: GraphID, continuation: CheckedContinuation<Outcome, Never>)] = []

    /// Why a construction was rolled back: the error that ended it, when the constructing graph knew it.
    struct Rollback {
        let error: (any Error)?
    }

    /// How the construction ended, seen by a graph that borrowed its value.
    enum Ending {
        /// Still constructing.
        case underway
        /// Published (or dropped by a registration change after it was whole).
        case published
        /// Rolled back: what the borrower built with the value is discarded too.
        case rolledBack(Rollback)
    }

    /// How a wait ended.
    enum Outcome {
        /// The construction was published or rolled back: look again.
        case opened
        /// The value was lent to break a deadlock: use it unpublished.
        case lent
    }

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        initializeMutex(mutex)
        checkPThread(pthread_cond_init(condition, nil), "pthread_cond_init")
    }

    deinit {
        checkPThread(pthread_cond_destroy(condition), "pthread_cond_destroy")
        checkPThread(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        condition.deallocate()
        mutex.deallocate()
    }

    private func withMutex<R>(_ body: () -> R) -> R {
        checkPThread(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        defer { checkPThread(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
        return body()
    }

    /// Records that the factory returned.
    func markValueReady() {
        withMutex { valueIsReady = true }
    }

    /// Whether the factory has returned.
    var isValueReady: Bool { withMutex { valueIsReady } }

    /// Whether the construction has ended, and how.
    var ending: Ending {
        withMutex {
            guard isOpen else { return .underway }
            return rollback.map { .rolledBack($0) } ?? .published
        }
    }

    /// Whether a wait of the graph `waiter` for this construction has ended: the construction was published or
    /// rolled back, or its value was lent to that graph.
    func hasReleased(_ waiter: GraphID) -> Bool { withMutex { isOpen || borrowers.contains(waiter) } }

    /// Whether the constructing graph keeps the construction open across an `await`: a synchronous resolve must not
    /// wait for it (`Slot.mustNotBlock`).
    var isHeldAcrossAwait: Bool { withMutex { heldAcrossAwait } }

    /// Records that the constructing graph keeps the construction open across an `await`, and wakes the threads
    /// blocked on it, which then look again and see that they must not wait.
    func holdAcrossAwait() {
        withMutex {
            heldAcrossAwait = true
            checkPThread(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
        }
    }

    /// Lets the graph `borrower` use the ready value before it is published.
    func lend(to borrower: GraphID) {
        let resumed = withMutex {
            borrowers.insert(borrower)
            checkPThread(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
            let resumed = suspended.filter { $0.waiter == borrower }
            suspended.removeAll { $0.waiter == borrower }
            return resumed
        }
        for task in resumed { task.continuation.resume(returning: .lent) }
    }

    /// Ends the construction and wakes every waiter. `rollback` says that it ended without being published; the
    /// graphs it was lent to then discard what they built with it (`ResolutionGraph.finishTogether`), and are woken
    /// too.
    func open(rollback: Rollback? = nil) {
        let (resumed, wasLent) = withMutex {
            if !isOpen { self.rollback = rollback }
            isOpen = true
            checkPThread(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
            defer { suspended.removeAll() }
            return (suspended, !borrowers.isEmpty)
        }
        for task in resumed { task.continuation.resume(returning: .opened) }
        if wasLent { ResolutionGraph.constructionsChanged() }
    }

    /// Suspends the calling task, without blocking its thread, until the construction ends or its value is lent to
    /// the graph `waiter` (an async resolve waiting for a singleton whose factory suspends). `blocked` (a test's
    /// observer, `EngineTestHooks`) runs once the task is recorded as suspended, with the mutex held.
    func waitAsync(as waiter: GraphID, announcing blocked: (() -> Void)? = nil) async -> Outcome {
        await withCheckedContinuation { continuation in
            let outcome: Outcome? = withMutex {
                if isOpen { return .opened }
                if borrowers.contains(waiter) { return .lent }
                suspended.append((waiter, continuation))
                blocked?()
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Blocks until the construction ends or its value is lent to the graph `waiter`, or until the constructing
    /// graph holds it across an `await` (then `.opened`: the caller looks again, and does not wait a second time).
    /// `blocked` (a test's observer, `EngineTestHooks`) runs once, with the mutex held, just before the thread
    /// blocks: whatever ends the wait takes the mutex, so it happens after `blocked` returns.
    func wait(as waiter: GraphID, announcing blocked: (() -> Void)? = nil) -> Outcome {
        withMutex {
            var blocked = blocked
            while !isOpen && !borrowers.contains(waiter) && !heldAcrossAwait {
                if let announce = blocked {
                    announce()
                    blocked = nil
                }
                checkPThread(pthread_cond_wait(condition, mutex), "pthread_cond_wait")
            }
            return !isOpen && borrowers.contains(waiter) ? .lent : .opened
        }
    }
}
