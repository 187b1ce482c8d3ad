/// Run-time checks of the engine's data structures, compiled in only when the package is built with
/// `PLEXUS_CHECK_INVARIANTS` set in the environment (`PLEXUS_CHECK_INVARIANTS=1 swift test`; CI's AddressSanitizer
/// run does). Each structure states its invariants in `checkInvariants()`, beside the fields they are about; a broken
/// one stops the process naming it, at the change that broke it rather than at a later wrong answer.
///
/// Where they run: `Protected.withLock` (in the core target, `Sources/PlexusCore/`) checks a value that is
/// `InvariantChecked` (the registry) as its lock is released after a change, when a check is due
/// (`InvariantCheckSchedule.isDue`: after every change of a small registry, one in `2 * size` of a large one); the
/// resolution graph checks that it is empty each time an outermost resolve starts on its thread.
enum Invariants {
    /// Stops the process with `message` unless `condition` holds.
    static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        fatalError("Plexus engine invariant broken: \(message())", file: file, line: line)
    }
}
