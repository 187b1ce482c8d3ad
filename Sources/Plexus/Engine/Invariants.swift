/// Run-time checks of the engine's data structures, compiled in only when the package is built with
/// `PLEXUS_CHECK_INVARIANTS` set in the environment (`PLEXUS_CHECK_INVARIANTS=1 swift test`; CI's AddressSanitizer
/// run does). Each structure states its invariants in `checkInvariants()`, beside the fields they are about; a broken
/// one stops the process naming it, at the change that broke it rather than at a later wrong answer.
///
/// Where they run: `Protected.withLock` checks a value that is `InvariantChecked` (the registry) as its lock is
/// released after a change, when a check is due (`isDue(change:size:)`: after every change of a small registry, one
/// in `size / 128` of a large one); the resolution graph checks that it is empty each time an outermost resolve starts
/// on its thread.
protocol InvariantChecked {
    /// Stops the process if the value's structure is broken.
    func checkInvariants()
    /// How many entries a full check visits, about: it decides how often one is due (`Invariants.isDue`).
    var checkedSize: Int { get }
}

enum Invariants {
    /// Whether this build checks invariants.
    static var areChecked: Bool {
        #if PLEXUS_CHECK_INVARIANTS
            true
        #else
            false
        #endif
    }

    /// Whether a structure of `size` entries is checked in full after its `change`-th change: after every change
    /// while it is small, and after one change in `size / 128` beyond, so that a check costs O(1) per change
    /// amortized (a full check after every change made tests that register thousands of keys quadratic). A broken
    /// invariant stays broken, so a later check still stops the process, only further from the change that broke it.
    static func isDue(change: Int, size: Int) -> Bool {
        size <= 128 || change % (size / 128 + 1) == 0
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
