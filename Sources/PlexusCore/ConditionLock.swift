#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A mutex and a condition variable that threads block on until another changes what the mutex guards: the engine's
/// waits for a singleton another thread constructs, and for the graphs that finish together.
///
/// Both live in memory of the lock's own, allocated once and never moved, and are destroyed with it: a pthread mutex or
/// condition must not move once initialized. Every pthread result is checked (`checkPThread`); a debug build's mutex
/// checks its errors (`initializeMutex`), so a thread that takes it twice or releases it without holding it stops the
/// process naming the call. Cold code: only threads that contend for one singleton reach it.
package final class ConditionLock: @unchecked Sendable {
    // `@unchecked Sendable`: the mutex and condition are the synchronization; what they guard is the caller's, touched
    // only inside `withLock`.
    /// The mutex, in memory of its own that never moves.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// The condition, used only with `mutex`, in memory of its own that never moves.
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    #if PLEXUS_CHECK_INVARIANTS
        /// The thread that holds the mutex, `nil` while none does: written only by the holder, and read by the checks
        /// of `wait` and `broadcast` (a thread that calls them without the lock breaks the contract they check).
        private var holder: pthread_t?
    #endif

    /// Makes an unlocked lock.
    package init() {
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

    /// Runs `body` with the mutex held. `body` may `wait()` and `broadcast()`; it must not take this lock again.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        checkPThread(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        #if PLEXUS_CHECK_INVARIANTS
            holder = pthread_self()
        #endif
        defer {
            #if PLEXUS_CHECK_INVARIANTS
                holder = nil
            #endif
            checkPThread(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        }
        return try body()
    }

    /// Releases the mutex until another thread calls `broadcast()` (or the system wakes this one spuriously: callers
    /// wait in a loop that checks what they wait for), then holds it again. Only inside `withLock`.
    package func wait() {
        #if PLEXUS_CHECK_INVARIANTS
            requireHeld("wait")
            holder = nil
        #endif
        checkPThread(pthread_cond_wait(condition, mutex), "pthread_cond_wait")
        #if PLEXUS_CHECK_INVARIANTS
            holder = pthread_self()
        #endif
    }

    /// Wakes every thread in `wait()`; each runs again once it holds the mutex. Only inside `withLock`, so that a
    /// change and its wake-up cannot be missed by a thread about to wait.
    package func broadcast() {
        #if PLEXUS_CHECK_INVARIANTS
            requireHeld("broadcast")
        #endif
        checkPThread(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
    }

    #if PLEXUS_CHECK_INVARIANTS
        /// Stops the process unless the calling thread holds the mutex.
        private func requireHeld(_ call: StaticString) {
            guard let holder, pthread_equal(holder, pthread_self()) != 0 else {
                fatalError("Plexus engine invariant broken: ConditionLock.\(call)() called without holding its lock")
            }
        }
    #endif
}
