internal import PlexusCore

/// The progress of one singleton construction, which other threads can wait on.
///
/// It moves from constructing to *value ready* (the factory returned; property hooks may still run) to *open*
/// (published or rolled back). A thread that finds that waiting would deadlock may *lend* a ready value to the
/// waiting graph on the cycle: that graph then stops waiting and uses the value before it is published, while
/// every other waiter still waits for the publication. A borrower finishes only together with the graph that lent
/// to it (`ResolutionGraph.finishTogether`): once the construction is published, or by throwing if it is rolled back.
final class ConstructionSignal: @unchecked Sendable {
    // `@unchecked Sendable`: the flags are only read and written while `lock` is held.
    private let lock = ConditionLock()
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

    /// Records that the factory returned.
    func markValueReady() {
        lock.withLock { valueIsReady = true }
    }

    /// Whether the factory has returned.
    var isValueReady: Bool { lock.withLock { valueIsReady } }

    /// Whether the construction has ended, and how.
    var ending: Ending {
        lock.withLock {
            guard isOpen else { return .underway }
            return rollback.map { .rolledBack($0) } ?? .published
        }
    }

    /// Whether a wait of the graph `waiter` for this construction has ended: the construction was published or
    /// rolled back, or its value was lent to that graph.
    func hasReleased(_ waiter: GraphID) -> Bool { lock.withLock { isOpen || borrowers.contains(waiter) } }

    /// Whether the constructing graph keeps the construction open across an `await`: a synchronous resolve must not
    /// wait for it (`Slot.mustNotBlock`).
    var isHeldAcrossAwait: Bool { lock.withLock { heldAcrossAwait } }

    /// Records that the constructing graph keeps the construction open across an `await`, and wakes the threads
    /// blocked on it, which then look again and see that they must not wait.
    func holdAcrossAwait() {
        lock.withLock {
            heldAcrossAwait = true
            lock.broadcast()
        }
    }

    /// Lets the graph `borrower` use the ready value before it is published.
    func lend(to borrower: GraphID) {
        let resumed = lock.withLock {
            borrowers.insert(borrower)
            lock.broadcast()
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
        let (resumed, wasLent) = lock.withLock {
            if !isOpen { self.rollback = rollback }
            isOpen = true
            lock.broadcast()
            defer { suspended.removeAll() }
            return (suspended, !borrowers.isEmpty)
        }
        for task in resumed { task.continuation.resume(returning: .opened) }
        if wasLent { ResolutionGraph.constructionsChanged() }
    }

    /// Suspends the calling task, without blocking its thread, until the construction ends or its value is lent to
    /// the graph `waiter` (an async resolve waiting for a singleton whose factory suspends). `blocked` (a test's
    /// observer, `EngineTestHooks`) runs once the task is recorded as suspended, with the lock held.
    func waitAsync(as waiter: GraphID, announcing blocked: (() -> Void)? = nil) async -> Outcome {
        await withCheckedContinuation { continuation in
            let outcome: Outcome? = lock.withLock {
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
    /// `blocked` (a test's observer, `EngineTestHooks`) runs once, with the lock held, just before the thread
    /// blocks: whatever ends the wait takes the lock, so it happens after `blocked` returns.
    func wait(as waiter: GraphID, announcing blocked: (() -> Void)? = nil) -> Outcome {
        lock.withLock {
            var blocked = blocked
            while !isOpen && !borrowers.contains(waiter) && !heldAcrossAwait {
                if let announce = blocked {
                    announce()
                    blocked = nil
                }
                lock.wait()
            }
            return !isOpen && borrowers.contains(waiter) ? .lent : .opened
        }
    }
}
