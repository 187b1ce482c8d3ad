import Plexus

/// The one process-wide recursive lock every Factory-style declaration, manager and lazy property wrapper of this
/// module is read and changed under, and that every resolution of a declaration holds while it runs: the factory
/// closure, the decorators, and Plexus's resolve of the declaration's slot.
///
/// Factory's closures and parameters are not `@Sendable`: a declaration's closure is kept by its container's
/// manager and may be called from whichever thread resolves. Holding one lock for the whole resolution means no
/// two threads ever run these closures or change a manager at the same time, which is the invariant the unchecked
/// `Sendable` conformances in `Sendability.swift` rest on. It also means the slots of declarations are claimed by
/// one thread at a time, so Plexus never has two threads waiting on each other's constructions of declarations;
/// and a slot's factory never waits for the lock (`withLockIfAvailable`). The lock is recursive so a factory may
/// resolve other declarations on the same thread.
///
/// The cost of that choice, which Factory makes too: a factory that blocks waiting for another thread which itself
/// resolves a declaration (for example `DispatchQueue.main.sync` inside a factory while the main thread resolves)
/// deadlocks. So do two threads where one builds a singleton of a Plexus module container whose factory resolves a
/// declaration (it waits for this lock) while the other, holding this lock, reaches that same singleton (through a
/// `promised()` declaration or a factory that resolves the module): the second waits for the first's singleton to be
/// made, as Plexus makes each singleton once. Keep module factories from resolving Factory-style declarations, or
/// resolve such a singleton once at startup.
@usableFromInline
enum ResolutionLock {
    /// The lock, kept by `Diagnostics.shared` with the cycle frames it guards.
    private static var lock: RecursiveLock { Diagnostics.shared.resolutionLock }

    /// Runs `body` holding the lock if this thread holds it already or it is free; nil without running it when
    /// another thread holds it. A declaration's slot asks this way: it never waits for the lock, so a thread of
    /// Plexus that reaches a declaration's slot by its key cannot deadlock with a resolve in progress.
    @usableFromInline
    static func withLockIfAvailable<R>(_ body: () throws -> R) rethrows -> R? {
        guard lock.tryLock() else { return nil }
        defer { lock.unlock() }
        return try body()
    }

    /// Takes the lock; `release()` gives it back. For a resolve, which holds it over a body whose closure would
    /// capture the generic declaration. A unique instance made directly takes the same lock through
    /// `Diagnostics.lockResolution()` instead, from the `Diagnostics.shared` it holds already: what these two do,
    /// those two do.
    @usableFromInline
    static func acquire() { lock.lock() }

    /// Gives back the lock `acquire()` took.
    @usableFromInline
    static func release() { lock.unlock() }

    /// Runs `body` holding the process-wide lock. What Plexus drops meanwhile (instances a reset or an override
    /// releases, slots, the closures they capture) is released after the lock, so that their `deinit`s, which are
    /// user code, may wait for a thread that resolves; inside a resolve that does not make a unique instance
    /// directly (`FactoryRegistration.makeDirectly`, where holding them back cost a sixth of the read), after the
    /// outermost resolve's lock.
    static func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try DependencyContainer.releasingAfterwards {
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }
    }
}
