import Plexus
import PlexusTesting
import Testing

private struct Missing: Sendable {}

@Suite(.silencingPlexusLogs) struct LogOverrideTests {
    @Test func aTaskLocalLoggerReceivesTheFailuresOfItsTask() {
        let messages = Log()
        Plexus.withLogging(level: .verbose, logger: messages.logger) {
            _ = try? DependencyContainer().resolve() as Missing
        }
        #expect(messages.entries.count == 1)
        #expect(messages.entries.first?.contains("Missing") == true)
    }

    @Test func levelNoneLogsNothingAndVerboseLogsRegistrations() {
        let messages = Log()
        let capture: @Sendable (LogLevel, Any) -> Void = { level, message in messages.append("\(level) \(message)") }
        Plexus.withLogging(level: .none, logger: capture) {
            _ = try? DependencyContainer().resolve() as Missing
        }
        #expect(messages.entries.isEmpty)
        Plexus.withLogging(level: .verbose, logger: capture) {
            DependencyContainer().register { Missing() }
        }
        #expect(messages.entries.contains { $0.hasPrefix("verbose") && $0.contains("Missing") })
    }

    @Test func theAsynchronousFormHoldsAcrossAwaitsAndChildTasks() async {
        let messages = Log()
        await Plexus.withLogging(level: .verbose, logger: messages.logger) {
            await Task.yield()
            _ = try? await DependencyContainer().resolve() as Missing
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { _ = try? await DependencyContainer().resolve() as Missing }
                }
            }
        }
        #expect(messages.entries.count == 5)
    }

    @Test func theInnermostSettingWins() {
        let outer = Log()
        let inner = Log()
        Plexus.withLogging(level: .verbose, logger: outer.logger) {
            Plexus.withLogging(level: .verbose, logger: inner.logger) {
                _ = try? DependencyContainer().resolve() as Missing
            }
            _ = try? DependencyContainer().resolve() as Missing
        }
        #expect(inner.entries.count == 1)
        #expect(outer.entries.count == 1)
    }

    @Test(arguments: 0..<16)
    func parallelTestsEachCaptureOnlyTheirOwnErrors(id: Int) async {
        let messages = Log()
        await Plexus.withLogging(level: .verbose, logger: messages.logger) {
            for _ in 0..<5 {
                _ = try? await DependencyContainer().resolve(tag: id) as Missing
                await Task.yield()
            }
        }
        #expect(messages.entries.count == 5)
        #expect(messages.entries.allSatisfy { $0.contains("tag: \(id))") })
    }
}
