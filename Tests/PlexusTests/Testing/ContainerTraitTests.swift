import Plexus
import PlexusTesting
import Testing

private struct Greeting: Sendable {
    let text: String
}

extension DependencyContainer {
    fileprivate var greeting: Factory<Greeting> { self { Greeting(text: "default") } }
}

/// The `.container` trait on a suite: every test gets its own fresh shared container.
@Suite(.container) struct ContainerTraitTests {
    /// The process-wide container, read outside any trait (a detached task inherits no task-local value).
    private static func processWide() async -> DependencyContainer {
        await Task.detached { DependencyContainer.shared }.value
    }

    @Test func eachTestGetsAFreshSharedContainer() async {
        let shared = DependencyContainer.shared
        #expect(shared !== (await Self.processWide()))
        #expect(throws: ResolutionError.self) { try shared.resolve() as Greeting }
        #expect(shared.greeting().text == "default")
    }

    @Test(arguments: 0..<32)
    func parallelCasesDoNotSeeEachOthersOverrides(id: Int) async {
        DependencyContainer.shared.greeting.replace { Greeting(text: "case \(id)") }
        for _ in 0..<10 {
            await Task.yield()
            #expect(DependencyContainer.shared.greeting().text == "case \(id)")
        }
    }

    @Test(.container { $0.greeting.replace { Greeting(text: "configured") } })
    func aTestLevelTraitConfiguresItsContainerAndWinsOverTheSuites() {
        #expect(DependencyContainer.shared.greeting().text == "configured")
    }

    @Test(.container { $0.register { Greeting(text: "registered") } })
    func theConfigurationMayRegisterDipStyle() throws {
        #expect(try (DependencyContainer.shared.resolve() as Greeting).text == "registered")
    }

    /// The configuration runs inside the test's scope: `DependencyContainer.shared` there is the test's container.
    @Test(.container { $0.inject(Greeting(text: DependencyContainer.shared === $0 ? "inside" : "outside")) })
    func theConfigurationSeesTheTestsSharedContainer() throws {
        #expect(try (DependencyContainer.shared.resolve() as Greeting).text == "inside")
    }

    @Test(.container(silencingLogs: false))
    func optingOutKeepsLoggingOn() {
        let messages = Log()
        Plexus.withLogging(level: .verbose, logger: messages.logger) {
            _ = try? DependencyContainer.shared.resolve() as Int
        }
        #expect(messages.entries.first?.contains("Int") == true)
    }

    @Test func expectValidGraphPassesForACompleteGraph() {
        let container = DependencyContainer()
        container.register { Greeting(text: "hi") }
        #expect(expectValidGraph(container))
        #expect(expectResolves(Greeting.self, in: container)?.text == "hi")
    }

    @Test func expectValidGraphRecordsTheErrorOfAnIncompleteGraph() {
        let container = DependencyContainer()
        container.register { [unowned container] in Greeting(text: "\(try container.resolve() as Int)") }
        withKnownIssue {
            expectValidGraph(container)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Int") }
                || "\(issue)".contains("Int")
        }
    }

    @Test func expectResolvesRecordsTheErrorOfAMissingDefinition() {
        withKnownIssue {
            #expect(expectResolves(Greeting.self, tag: "missing", in: DependencyContainer()) == nil)
        }
    }
}
