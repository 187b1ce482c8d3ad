import Plexus
public import Testing

/// A Swift Testing trait that stops Plexus from logging while each test runs, for tests that exercise misuse Plexus
/// logs instead of throwing (a tag falling back to the untagged definition, an override with no effect).
///
/// ```swift
/// @Suite(.silencingPlexusLogs)
/// struct ErrorTests { … }
/// ```
///
/// It uses `Plexus.withLogging(level: .none)`, a task-local setting: tests running in parallel do not race on the
/// process-wide ``Plexus/logLevel``. Threads a test starts with `Thread` or `DispatchQueue` log with the
/// process-wide settings; such a test calls `Plexus.withLogging` on its threads, or captures the logger.
public struct SilencingPlexusLogsTrait: TestTrait, SuiteTrait, TestScoping {
    /// On a suite, the trait applies to every test in it.
    public var isRecursive: Bool { true }

    /// Runs `function` with Plexus logging nothing.
    /// - Parameters:
    ///   - test: The test or suite the scope is for.
    ///   - testCase: The test case, for a parameterized test.
    ///   - function: The test to run.
    /// - Throws: What the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Plexus.withLogging(level: .none, function)
    }
}

extension Trait where Self == SilencingPlexusLogsTrait {
    /// Plexus logs nothing while each test runs.
    public static var silencingPlexusLogs: Self { SilencingPlexusLogsTrait() }
}
