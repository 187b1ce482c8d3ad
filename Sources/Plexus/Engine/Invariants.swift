/// Run-time checks of the engine's data structures, compiled in only when the package is built with
/// `PLEXUS_CHECK_INVARIANTS` set in the environment (`PLEXUS_CHECK_INVARIANTS=1 swift test`; CI's AddressSanitizer
/// run does). Each structure states its invariants in `checkInvariants()`, beside the fields they are about; a broken
/// one stops the process naming it, at the change that broke it rather than at a later wrong answer.
///
/// Where they run: `Protected.withLock` checks a value that is `InvariantChecked` (the registry) as its lock is
/// released after a change, when a check is due (`isDue(change:size:)`: after every change of a small registry, one
/// in `2 * size` of a large one); the resolution graph checks that it is empty each time an outermost resolve starts
/// on its thread.
protocol InvariantChecked {
    /// Stops the process if the value's structure is broken.
    func checkInvariants()
    /// How many entries a full check visits, about: it decides how often one is due (`Invariants.isDue`).
    var checkedSize: Int { get }
}

enum Invariants {
    /// Whether a structure of `size` entries is checked in full after its `change`-th change: after every change
    /// while it has at most 32 entries (most tests' containers), and after one change in `2 * size` beyond, so that
    /// checking a large registry costs less than one entry per change. Checking more often made the suite several
    /// times slower (tests that remember hundreds of thousands of routes, or register thousands of keys, while
    /// holding the lock all definitions share). A broken invariant stays broken, so a later check still stops the
    /// process, only further from the change that broke it.
    static func isDue(change: Int, size: Int) -> Bool {
        size <= 32 || change % (2 * size) == 0
    }

    /// Stops the process with `message` unless `condition` holds.
    static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        fatalError("Plexus engine invariant broken: \(message())", file: file, line: line)
    }
}
