/// A value whose structure `Protected.withLock` checks after a change, when the package is built with
/// `PLEXUS_CHECK_INVARIANTS` (the engine's registry; `Sources/Plexus/Engine/Invariants.swift` says when and why).
package protocol InvariantChecked {
    /// Stops the process if the value's structure is broken.
    func checkInvariants()
    /// How many entries a full check visits, about: it decides how often one is due (`InvariantCheckSchedule`).
    var checkedSize: Int { get }
}

/// How often `Protected.withLock` checks an `InvariantChecked` value.
package enum InvariantCheckSchedule {
    /// Whether a structure of `size` entries is checked in full after its `change`-th change: after every change
    /// while it has at most 32 entries (most tests' containers), and after one change in `2 * size` beyond, so that
    /// checking a large registry costs less than one entry per change. Checking more often made the suite several
    /// times slower (tests that remember hundreds of thousands of routes, or register thousands of keys, while
    /// holding the lock all definitions share). A broken invariant stays broken, so a later check still stops the
    /// process, only further from the change that broke it.
    package static func isDue(change: Int, size: Int) -> Bool {
        size <= 32 || change % (2 * size) == 0
    }
}
