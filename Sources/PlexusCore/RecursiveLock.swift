internal import PlexusSystem

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A recursive lock (PlexusSystem's `plexus_recursive_lock`: a normal mutex, its holder and a depth): the thread that
/// holds it may take it again, for one relaxed load, and gives it back as many times. For a product of this package
/// that holds one process-wide lock over whole resolutions (PlexusFactoryKit, as Factory does), where Foundation's
/// `NSRecursiveLock` costs several times as much per resolve. Package access; every pthread result is checked
/// (`checkPThread`).
package final class RecursiveLock: @unchecked Sendable {
    /// In memory of its own, which never moves while the lock exists.
    private let storage: UnsafeMutablePointer<plexus_recursive_lock>

    /// Makes an unlocked lock.
    package init() {
        guard let lock = plexus_recursive_lock_create() else { fatalError("Plexus: could not make a mutex") }
        storage = lock
    }

    deinit {
        plexus_recursive_lock_destroy(storage)
    }

    /// Takes the lock, waiting while another thread holds it.
    package func lock() {
        if tryLock() { return }
        // About to wait for another thread: where a test orders threads (`EngineTestHooks.observeLockWaits`).
        LockWaitObservers.notify()
        checkPThread(plexus_recursive_lock_lock(storage), "pthread_mutex_lock")
    }

    /// Gives back one `lock()` (or successful `tryLock()`) of this thread.
    package func unlock() {
        checkPThread(plexus_recursive_lock_unlock(storage), "pthread_mutex_unlock")
    }

    /// Takes the lock if it is free or this thread holds it; false, without waiting, when another thread holds it.
    package func tryLock() -> Bool {
        let result = plexus_recursive_lock_try(storage)
        if result == 0 { return true }
        if result == EBUSY { return false }
        checkPThread(result, "pthread_mutex_trylock")
        return false
    }
}

/// What a thread about to block on a `RecursiveLock` calls: the observers a test installs through
/// `EngineTestHooks.observeLockWaits` (in `Plexus`), kept here because the lock that calls them is here.
package enum LockWaitObservers {
    /// Adds `observer`; returns the number to pass to `remove`.
    package static func add(_ observer: @escaping @Sendable () -> Void) -> Int {
        observers.withLock { observers in
            observers.count += 1
            observers.entries.append((observers.count, observer))
            return observers.count
        }
    }

    /// Removes the observer `add` numbered `number`: it is not called again once `remove` returns.
    package static func remove(_ number: Int) {
        observers.withLock { $0.entries.removeAll { $0.number == number } }
    }

    /// Calls the observers, if any: only a thread about to block on a `RecursiveLock` calls this.
    static func notify() {
        let observers = observers.withLock { $0.entries.map(\.observer) }
        for observer in observers { observer() }
    }

    private static let observers = Protected((count: 0, entries: [(number: Int, observer: @Sendable () -> Void)]()))
}
