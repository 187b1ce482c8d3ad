import Foundation
import Plexus
import PlexusTesting
import Testing

// Type names unique to this file, so that messages from suites running in parallel can be told apart.
private final class LoggingProbeMissing: Sendable {}
private final class LoggingProbeRegistered: Sendable {}
private final class LoggingProbeFailing: Sendable {}
private final class LoggingProbeDefaultTuple: Sendable {}

/// An error that counts how often it is turned into text.
private final class CountingError: Error, CustomStringConvertible, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var formatted: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
    var description: String {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return "LoggingProbeCountingError"
    }
}

/// The messages a test's logger received.
private final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(LogLevel, String)] = []
    private var calls = 0
    var messages: [(level: LogLevel, text: String)] {
        lock.lock()
        defer { lock.unlock() }
        return items.map { (level: $0.0, text: $0.1) }
    }
    var callCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }
    func record(_ level: LogLevel, _ message: Any) {
        let text = "\(message)"
        lock.lock()
        defer { lock.unlock() }
        calls += 1
        items.append((level, text))
    }
    func messages(mentioning word: String) -> [(level: LogLevel, text: String)] {
        messages.filter { $0.text.contains(word) }
    }
}

/// Runs `body` with Plexus logging at `level` into a fresh capture, for this task only (the process-wide settings
/// stay as they are, so suites running in parallel are not affected).
private func withLogging(_ level: LogLevel, _ body: (Capture) throws -> Void) throws {
    let capture = Capture()
    let logger: @Sendable (LogLevel, Any) -> Void = { level, message in capture.record(level, message) }
    try Plexus.withLogging(level: level, logger: logger) { try body(capture) }
}

// Serialized: two tests change the process-wide settings. Every other test logs through the task-local helper.
@Suite(.serialized, .silencingPlexusLogs) struct LoggingTests {
    let container = DependencyContainer()

    @Test func logLevelIsSettableAndRestored() {
        let saved = Plexus.logLevel
        for level in [LogLevel.none, .errors, .verbose] {
            Plexus.logLevel = level
            #expect(Plexus.logLevel == level)
        }
        Plexus.logLevel = saved
        #expect(Plexus.logLevel == saved)
    }

    /// The one test that leaves the task-local silencing of the suite: a detached task sees the process-wide
    /// settings. A failure the caller handles is the caller's to report; a replacement nothing throws is logged.
    @Test func aCaughtResolveFailureLogsNothingByDefault() async {
        let container = container
        let capture = Capture()
        let savedLogger = Plexus.logger
        let (defaultLevel, failures, replacements) = await Task.detached {
            let level = Plexus.logLevel
            Plexus.logger = { level, message in capture.record(level, message) }
            defer { Plexus.logger = savedLogger }
            _ = try? container.resolve() as LoggingProbeMissing
            do {
                _ = try container.resolve() as LoggingProbeMissing
            } catch {}
            container.register { (id: Int, name: String) in LoggingProbeDefaultTuple() }
            container.register { (pair: (Int, String)) in LoggingProbeDefaultTuple() }
            return (
                level, capture.messages(mentioning: "LoggingProbeMissing"),
                capture.messages(mentioning: "LoggingProbeDefaultTuple")
            )
        }.value
        #expect(defaultLevel == .errors)
        #expect(failures.isEmpty)
        #expect(replacements.count == 1)
        #expect(replacements.first?.level == .errors)
    }

    @Test func loggerIsSettable() throws {
        try withLogging(.verbose) { capture in
            #expect(throws: ResolutionError.self) { _ = try container.resolve() as LoggingProbeMissing }
            #expect(capture.messages(mentioning: "LoggingProbeMissing").isEmpty == false)
        }
    }

    @Test func levelsAreOrderedAndDipSpellingsCompile() {
        #expect(LogLevel.none < .errors)
        #expect(LogLevel.errors < .verbose)
        #expect(LogLevel.None == .none)
        #expect(LogLevel.Errors == .errors)
        #expect(LogLevel.Verbose == .verbose)
    }

    @Test func noneLogsNothing() throws {
        try withLogging(.none) { capture in
            #expect(throws: ResolutionError.self) { _ = try container.resolve() as LoggingProbeMissing }
            container.register { LoggingProbeRegistered() }
            _ = try container.resolve() as LoggingProbeRegistered
            try container.bootstrap()
            #expect(capture.callCount == 0)
        }
    }

    @Test func failuresAreLoggedAtVerbose() throws {
        try withLogging(.errors) { capture in
            #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "t") as LoggingProbeMissing }
            #expect(capture.messages(mentioning: "LoggingProbeMissing").isEmpty)
        }
        try withLogging(.verbose) { capture in
            #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "t") as LoggingProbeMissing }
            let messages = capture.messages(mentioning: "LoggingProbeMissing")
            #expect(messages.count == 1)
            #expect(messages.first?.level == .verbose)
            #expect(messages.first?.text.contains("tag: \"t\"") == true)
        }
    }

    @Test func factoryErrorsAreLoggedAtVerboseOnly() throws {
        let error = CountingError()
        container.register { () throws -> LoggingProbeFailing in throw error }
        try withLogging(.errors) { capture in
            #expect(throws: CountingError.self) { _ = try container.resolve() as LoggingProbeFailing }
            #expect(capture.messages(mentioning: "LoggingProbeCountingError").isEmpty)
        }
        try withLogging(.verbose) { capture in
            #expect(throws: CountingError.self) { _ = try container.resolve() as LoggingProbeFailing }
            #expect(capture.messages(mentioning: "LoggingProbeCountingError").count == 1)
        }
    }

    @Test func errorsLevelDoesNotLogRegistrationsOrSuccessfulResolves() throws {
        try withLogging(.errors) { capture in
            container.register(.eagerSingleton) { LoggingProbeRegistered() }
            _ = try container.resolve() as LoggingProbeRegistered
            try container.bootstrap()
            #expect(capture.messages(mentioning: "LoggingProbeRegistered").isEmpty)
        }
    }

    @Test func verboseLogsRegistrations() throws {
        try withLogging(.verbose) { capture in
            container.register(.singleton, tag: "v") { LoggingProbeRegistered() }
            let messages = capture.messages(mentioning: "LoggingProbeRegistered")
            #expect(messages.isEmpty == false)
            #expect(messages.allSatisfy { $0.level == .verbose })
        }
    }

    @Test func nothingIsFormattedWhenTheLevelIsBelow() throws {
        let error = CountingError()
        container.register { () throws -> LoggingProbeFailing in throw error }
        try withLogging(.none) { capture in
            // Plain do/catch: `#expect(throws:)` itself formats the error it catches.
            do {
                _ = try container.resolve() as LoggingProbeFailing
                Issue.record("expected the factory's error")
            } catch let caught as CountingError {
                #expect(caught === error)
            }
            #expect(capture.callCount == 0)
        }
        #expect(error.formatted == 0, "an error that will not be logged must not be formatted")
    }

    @Test func aFailureCaughtInsideAFactoryIsLoggedAtVerboseAsATopLevelOneIs() throws {
        container.register { c -> LoggingProbeRegistered in
            _ = try? c.resolve() as LoggingProbeMissing
            return LoggingProbeRegistered()
        }
        try withLogging(.verbose) { capture in
            _ = try container.resolve() as LoggingProbeRegistered
            let nested = capture.messages(mentioning: "LoggingProbeMissing")
            _ = try? container.resolve() as LoggingProbeMissing
            let all = capture.messages(mentioning: "LoggingProbeMissing")
            #expect(nested.count == 1)
            #expect(all.count == 2 && all.allSatisfy { $0.level == .verbose })
            #expect(nested.first?.text.contains("LoggingProbeRegistered") == true)  // what required it
        }
        try withLogging(.errors) { capture in
            _ = try container.resolve() as LoggingProbeRegistered
            #expect(capture.messages(mentioning: "LoggingProbeMissing").isEmpty)
        }
    }

    @Test func aFailurePropagatingThroughFactoriesIsLoggedOnce() throws {
        container.register { c -> LoggingProbeRegistered in
            _ = try c.resolve() as LoggingProbeMissing
            return LoggingProbeRegistered()
        }
        container.register { c -> LoggingProbeDefaultTuple in
            _ = try c.resolve() as LoggingProbeRegistered
            return LoggingProbeDefaultTuple()
        }
        try withLogging(.verbose) { capture in
            #expect(throws: ResolutionError.self) { try container.resolve() as LoggingProbeDefaultTuple }
            #expect(capture.messages(mentioning: "LoggingProbeMissing").count == 1)
            // The next failure of the same kind, in a new resolve, is logged again.
            #expect(throws: ResolutionError.self) { try container.resolve() as LoggingProbeDefaultTuple }
            #expect(capture.messages(mentioning: "LoggingProbeMissing").count == 2)
        }
    }

    @Test func settingsAreSafeToChangeFromManyThreads() {
        let savedLevel = Plexus.logLevel
        let savedLogger = Plexus.logger
        defer {
            Plexus.logLevel = savedLevel
            Plexus.logger = savedLogger
        }
        let container = container
        Plexus.logger = { _, _ in }  // before any thread raises the level: nothing reaches the console
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<200 {
                Plexus.logLevel = (index + round).isMultiple(of: 2) ? .none : .errors
                Plexus.logger = { _, _ in }
                _ = try? container.resolve() as LoggingProbeMissing
            }
        }
        Plexus.logLevel = .verbose
        #expect(Plexus.logLevel == .verbose)
    }
}

// MARK: - What validation, tag fallback and surprising replacements log

private final class LoggingProbeValidated: Sendable {}
private final class LoggingProbeFallback: Sendable {}
private final class LoggingProbeEnumTagged: Sendable {}
private final class LoggingProbeTuple: Sendable {}
private final class LoggingProbeOverride: Sendable {}
private enum LoggingProbeDomainError: Error { case offline }
private enum LoggingProbeFlavour: String, DependencyTagConvertible { case main }
private enum LoggingProbeMode: String, DependencyTagConvertible { case main }

extension LoggingTests {
    @Test func validateLogsIgnoredDomainErrorsAtVerboseOnly() throws {
        container.register { () throws -> LoggingProbeValidated in throw LoggingProbeDomainError.offline }
        try withLogging(.errors) { capture in
            try container.validate()
            #expect(capture.messages(mentioning: "LoggingProbeValidated").isEmpty)
        }
        try withLogging(.verbose) { capture in
            try container.validate()
            let messages = capture.messages(mentioning: "LoggingProbeValidated")
            #expect(messages.count == 1)
            #expect(messages.allSatisfy { $0.level == .verbose && $0.text.contains("domain error") })
        }
    }

    @Test func validateLogsTheErrorItThrowsOnceAtVerboseNamingTheDefinition() throws {
        container.register { [container] () -> LoggingProbeValidated in
            _ = try container.resolve() as LoggingProbeMissing
            return LoggingProbeValidated()
        }
        try withLogging(.errors) { capture in
            #expect(throws: ResolutionError.self) { try container.validate() }
            #expect(capture.messages(mentioning: "LoggingProbeMissing").isEmpty)
        }
        try withLogging(.verbose) { capture in
            #expect(throws: ResolutionError.self) { try container.validate() }
            let messages = capture.messages(mentioning: "LoggingProbeMissing")
            #expect(messages.count == 1)
            #expect(messages.first?.level == .verbose)
            #expect(messages.first?.text.contains("Validation of LoggingProbeValidated failed") == true)
        }
    }

    @Test func tagFallingBackToTheUntaggedDefinitionLogsAtErrors() throws {
        container.register { LoggingProbeFallback() }
        try withLogging(.errors) { capture in
            _ = try container.resolve(tag: "special") as LoggingProbeFallback
            _ = try container.resolve() as LoggingProbeFallback
            let messages = capture.messages(mentioning: "LoggingProbeFallback (tag: \"special\")")
            #expect(messages.count == 1)
            #expect(messages.first?.level == .errors)
            #expect(messages.first?.text.contains("using the untagged LoggingProbeFallback") == true)
        }
        try withLogging(.none) { capture in
            _ = try container.resolve(tag: "special") as LoggingProbeFallback
            #expect(capture.callCount == 0)
        }
    }

    @Test func replacingADefinitionTaggedFromAnotherEnumLogsAnError() throws {
        try withLogging(.errors) { capture in
            container.register(tag: LoggingProbeFlavour.main) { LoggingProbeEnumTagged() }
            container.register(tag: LoggingProbeFlavour.main) { LoggingProbeEnumTagged() }
            #expect(capture.messages(mentioning: "LoggingProbeEnumTagged").isEmpty, "same enum: an intended override")
            container.register(tag: LoggingProbeMode.main) { LoggingProbeEnumTagged() }
            let messages = capture.messages(mentioning: "LoggingProbeEnumTagged")
            #expect(messages.count == 1)
            #expect(messages.first?.level == .errors)
            #expect(messages.first?.text.contains("LoggingProbeFlavour") == true)
            #expect(messages.first?.text.contains("LoggingProbeMode") == true)
        }
    }

    @Test func replacingSeparateArgumentsWithOneTupleArgumentLogsAnError() throws {
        try withLogging(.errors) { capture in
            container.register { (id: Int, name: String) in LoggingProbeTuple() }
            container.register { (pair: (Int, String)) in LoggingProbeTuple() }
            let messages = capture.messages(mentioning: "LoggingProbeTuple")
            #expect(messages.count == 1)
            #expect(messages.first?.level == .errors)
            #expect(messages.first?.text.contains("one tuple argument") == true)
        }
    }

    @Test func anOrdinaryOverrideLogsNoError() throws {
        try withLogging(.errors) { capture in
            container.register(tag: "t") { LoggingProbeOverride() }
            container.register(tag: "t") { LoggingProbeOverride() }
            container.register { (id: Int) in LoggingProbeOverride() }
            container.register { (id: Int) in LoggingProbeOverride() }
            #expect(capture.messages(mentioning: "LoggingProbeOverride").isEmpty)
        }
    }
}
