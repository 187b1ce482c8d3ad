internal import PlexusCore

/// Points where Plexus's own tests observe the engine, so that they order threads with semaphores instead of pauses.
/// For tests only: `package`, so no app or library outside this package can reach it.
///
/// Nothing is observed unless a test asks: the engine looks for an observer only on the path of a thread that is about
/// to block on another thread's construction (which takes locks and blocks anyway), never on a resolve that does not
/// wait.
package enum EngineTestHooks {
    /// A wait observer installed by `observeWaits(for:_:)`; `stop()` removes it.
    package struct WaitObservation: Sendable {
        fileprivate let number: Int

        /// Removes the observer: it is not called again once `stop` returns.
        package func stop() {
            EngineTestHooks.waitObservers.withLock { $0.entries.removeAll { $0.number == number } }
        }
    }

    /// Calls `observer` each time a resolve of `type` is about to wait for the construction of a singleton that
    /// another resolution graph (another thread or task) is running.
    ///
    /// When `observer` runs, the waiting graph has recorded its wait, so another graph that waits for it sees the
    /// cycle, and holds the construction's lock: whatever ends the wait (the construction published or rolled back,
    /// its value lent, the construction held across an `await`) happens after `observer` returns, while the thread is
    /// blocked (or the task suspended). Because that lock is held, `observer` must only signal (a semaphore), never
    /// resolve, block or take a lock the engine may wait for.
    package static func observeWaits(
        for type: Any.Type, _ observer: @escaping @Sendable () -> Void
    ) -> WaitObservation {
        waitObservers.withLock { observers in
            observers.count += 1
            observers.entries.append((observers.count, ObjectIdentifier(type), observer))
            return WaitObservation(number: observers.count)
        }
    }

    /// Calls `observer` with the container each time a typed accessor's lookup there has found nothing under exactly its
    /// key and is about to search the collaborators (before it falls back to the declared default); `stop()` on the
    /// result removes it. No lock of the engine is held then: `observer` may register, which is what a test of a change
    /// made during that search does.
    package static func observeAccessorSearches(
        _ observer: @escaping @Sendable (DependencyContainer) -> Void
    ) -> AccessorSearchObservation {
        accessorSearchObservers.withLock { observers in
            observers.count += 1
            observers.entries.append((observers.count, observer))
            return AccessorSearchObservation(number: observers.count)
        }
    }

    /// An observer installed by `observeAccessorSearches(_:)`.
    package struct AccessorSearchObservation: Sendable {
        fileprivate let number: Int

        /// Removes the observer: it is not called again once `stop` returns.
        package func stop() {
            EngineTestHooks.accessorSearchObservers.withLock { $0.entries.removeAll { $0.number == number } }
        }
    }

    /// The observers of accessor searches, as one function; `nil` when there is none (always, outside tests).
    static func accessorSearchObserver() -> ((DependencyContainer) -> Void)? {
        let observers = accessorSearchObservers.withLock { $0.entries.map(\.observer) }
        guard !observers.isEmpty else { return nil }
        return { container in for observer in observers { observer(container) } }
    }

    private static let accessorSearchObservers = Protected(
        (count: 0, entries: [(number: Int, observer: @Sendable (DependencyContainer) -> Void)]()))

    /// Whether `container`'s fast path reads its definitions without the lock now: the reader bias is on. Every change
    /// of the registry turns it off; reads under the lock turn it back on after a while.
    package static func readsWithoutLock(_ container: DependencyContainer) -> Bool {
        container.registry.readsWithoutLock
    }

    /// `container`'s answer generation now: what its remembered routes and typed accessors' answers are valid for.
    /// It moves with every change that could move where a key resolves in `container`, and with nothing else.
    package static func answerGeneration(of container: DependencyContainer) -> Int {
        container.epoch.current
    }

    /// Calls `observer` each time a thread is about to wait for a `RecursiveLock` (a product's process-wide lock, such
    /// as PlexusFactoryKit's resolution lock) that another thread holds; `stop()` on the result removes it. It runs on
    /// the waiting thread, which holds no lock of the engine then: `observer` must only signal.
    package static func observeLockWaits(_ observer: @escaping @Sendable () -> Void) -> LockWaitObservation {
        LockWaitObservation(number: LockWaitObservers.add(observer))
    }

    /// An observer installed by `observeLockWaits(_:)`.
    package struct LockWaitObservation: Sendable {
        fileprivate let number: Int

        /// Removes the observer: it is not called again once `stop` returns.
        package func stop() {
            LockWaitObservers.remove(number)
        }
    }

    /// The observers of waits for `key`'s type, as one function; `nil` when there is none (always, outside tests).
    static func waitObserver(for key: DefinitionKey) -> (() -> Void)? {
        let type = ObjectIdentifier(key.type)
        let observers = waitObservers.withLock { $0.entries.filter { $0.type == type }.map(\.observer) }
        guard !observers.isEmpty else { return nil }
        return { for observer in observers { observer() } }
    }

    /// The installed wait observers, and how many were ever installed (which numbers them).
    private struct WaitObservers {
        var count = 0
        var entries: [(number: Int, type: ObjectIdentifier, observer: @Sendable () -> Void)] = []
    }

    private static let waitObservers = Protected(WaitObservers())
}
