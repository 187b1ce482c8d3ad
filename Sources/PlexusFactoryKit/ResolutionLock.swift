import Foundation

/// The one process-wide recursive lock every Factory-style declaration, scope cache, context table and lazy
/// property wrapper of this module is read and changed under, and that every resolution holds while it runs the
/// factory closure, the decorators and the scope's bookkeeping.
///
/// Factory's closures and parameters are not `@Sendable`: a declaration's closure is stored in its container's
/// manager and may be called from whichever thread resolves. Holding one lock for the whole resolution means no
/// two threads ever run these closures, read the scope caches or change a manager at the same time, which is the
/// invariant the unchecked `Sendable` conformances in `Sendability.swift` rest on. The lock is recursive so a
/// factory may resolve other declarations (or the same container's decorator may) on the same thread.
///
/// The cost of that choice: a factory that blocks waiting for another thread which itself resolves (for example
/// `DispatchQueue.main.sync` inside a factory while the main thread resolves) deadlocks, as it does under Factory
/// whenever a `.graph` scope is registered.
enum ResolutionLock {
    private static let lock = NSRecursiveLock()

    /// Runs `body` holding the process-wide lock.
    static func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
