import Plexus
import PlexusTesting
import Testing

private final class Clock {}
private final class Formatter {}
private final class Session {
    init(formatter: Formatter) {}
}
private final class Cache {
    init(session: Session) {}
}
private final class Logger {}
private final class Pulse: Sendable {}
private final class Badge: Sendable {}
private final class Left {
    var right: Right?
}
private final class Right {
    let left: Left
    init(left: Left) { self.left = left }
}
private final class Ping {
    init(pong: Pong) {}
}
private final class Pong {
    init(ping: Ping) {}
}
private final class Missing {}
private final class NeedsMissing {
    init(missing: Missing) {}
}

private final class Analytics: Sendable {}
private final class CheckoutModel {
    @Inject(\.findingAnalytics) var analytics: Analytics
}
private final class ModuleModel {
    @Inject var analytics: Analytics
    init(container: DependencyContainer) { _analytics = Inject(\.findingAnalytics, container: container) }
}
extension DependencyContainer {
    fileprivate var findingAnalytics: Factory<Analytics> { self { Analytics() }.singleton }
}

@Suite(.silencingPlexusLogs) struct GraphReportFindingTests {
    let container = DependencyContainer(name: "Checkout")

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton, .cached])
    func aLongLivedInstanceThatHoldsAUniqueOneIsACaptiveDependency(scope: ComponentScope) throws {
        container.register(.unique) { Formatter() }
        container.register(scope) { [unowned container] in Session(formatter: try container.resolve()) }
        let report = try container.validate()
        let finding = try #require(report.findings(.captiveDependency).first)
        #expect(report.findings(.captiveDependency).count == 1)
        #expect(finding.severity == .warning)
        #expect(finding.path.map(\.type) == ["Session", "Formatter"])
        #expect(finding.nodes == ["Checkout/Session", "Checkout/Formatter"])
        #expect(finding.description.contains("The \(scope) Session in Checkout ("))
        #expect(finding.description.contains("depends on the unique Formatter in Checkout directly"))
    }

    @Test(arguments: [ComponentScope.unique, .shared, .weakSingleton])
    func anyShortLivedScopeCanBeHeldCaptive(scope: ComponentScope) throws {
        container.register(scope) { Formatter() }
        container.register(.singleton) { [unowned container] in Session(formatter: try container.resolve()) }
        let report = try container.validate()
        #expect(report.findings(.captiveDependency).map(\.path.last?.type) == ["Formatter"])
    }

    @Test func aCaptiveDependencyThroughAnotherInstanceNamesThePath() throws {
        container.register(.unique) { Formatter() }
        container.register(.shared) { [unowned container] in Session(formatter: try container.resolve()) }
        container.register(.singleton) { [unowned container] in Cache(session: try container.resolve()) }
        let report = try container.validate()
        let paths = report.findings(.captiveDependency).map { $0.path.map(\.type) }
        #expect(paths == [["Cache", "Session"], ["Cache", "Session", "Formatter"]])
        let through = try #require(report.findings(.captiveDependency).last)
        #expect(through.description.contains("through Session (shared)"))
    }

    @Test func singletonsDependingOnSingletonsAreNotCaptive() throws {
        container.register(.singleton) { Formatter() }
        container.register(.eagerSingleton) { [unowned container] in Session(formatter: try container.resolve()) }
        let report = try container.validate()
        #expect(report.findings(.captiveDependency).isEmpty)
    }

    @Test func aCycleClosedByAPropertyHookIsListedAsInformation() throws {
        container.register { [unowned container] in Right(left: try container.resolve()) }
        container.register { Left() }
            .resolvingProperties { container, left in left.right = try container.resolve() }
        let report = try container.validate()
        let cycles = report.findings(.cycle)
        #expect(cycles.count == 1)
        let cycle = try #require(cycles.first)
        #expect(cycle.severity == .information)
        #expect(cycle.path.map(\.type) == ["Right", "Left", "Right"])
        #expect(cycle.description.contains("closed by the property injection Left -> Right"))
    }

    @Test func aCycleOnlyInitializersCouldCloseStillThrows() {
        container.register { [unowned container] in Ping(pong: try container.resolve()) }
        container.register { [unowned container] in Pong(ping: try container.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try container.validate() }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path.count == 3)
    }

    @Test func aMissingDefinitionStillThrows() {
        container.register { [unowned container] in NeedsMissing(missing: try container.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try container.validate() }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Missing.self))
    }

    @Test func aDefinitionThatACollaboratorAlsoRegistersIsShadowed() throws {
        let root = DependencyContainer(name: "Root")
        root.register(.singleton) { Logger() }
        let line = #line + 1
        container.register(.singleton) { Logger() }
        container.collaborate(with: root)
        let report = try container.validate()
        let finding = try #require(report.findings(.shadowed).first)
        #expect(report.findings(.shadowed).count == 1)
        #expect(finding.nodes == ["Checkout/Logger", "Root/Logger"])
        #expect(finding.severity == .warning)
        #expect(
            finding.description.contains(
                "Logger is registered in Checkout (\(#fileID):\(line)) and in its collaborator Root ("))
        #expect(report.node("Root/Logger")?.dependenciesKnown == false)
    }

    @Test func aDefinitionNothingUsesIsUnused() throws {
        container.register { Logger() }
        container.register(.unique) { Formatter() }
        container.register(.singleton) { [unowned container] in Session(formatter: try container.resolve()) }
        let report = try container.validate()
        let unused = report.findings(.unused)
        #expect(unused.map(\.nodes) == [["Checkout/Logger"], ["Checkout/Session"]])
        #expect(unused.allSatisfy { $0.severity == .information })
        #expect(unused.first?.description.contains("Nothing in the graph depends on Logger in Checkout (") == true)
    }

    /// Async and main-actor definitions are definitions too (their nodes have kinds of their own).
    @Test func asyncAndMainActorDefinitionsNothingUsesAreUnused() async throws {
        container.register { () async -> Pulse in
            await Task.yield()
            return Pulse()
        }
        container.register { @MainActor in Badge() }
        let report = try await container.validate()
        #expect(Set(report.findings(.unused).flatMap(\.nodes)) == ["Checkout/Pulse", "Checkout/Badge"])
    }

    @Test func findingsOfCollaboratorsAreNotUnused() throws {
        let root = DependencyContainer(name: "Root")
        root.register { Logger() }
        root.register(.unique) { Formatter() }
        container.register(.unique) { [unowned container] in Session(formatter: try container.resolve()) }
        container.collaborate(with: root)
        let report = try container.validate()
        #expect(report.findings(.unused).flatMap(\.nodes) == ["Checkout/Session"])
    }

    @Test func anInjectWithoutAContainerReadsTheSharedContainerAndSaysSo() throws {
        let report = try DependencyContainer.withShared(DependencyContainer(name: "shared")) {
            let line = #line + 1
            container.register { CheckoutModel() }
            let report = try container.validate()
            #expect(
                report.findings(.sharedContainer).first?.description.contains(
                    "CheckoutModel in Checkout (\(#fileID):\(line)) reads Analytics from DependencyContainer.shared "
                        + "(named \"shared\" here), which Checkout does not collaborate with: `@Inject` and "
                        + "`@LazyInject` resolve from DependencyContainer.shared unless given `container:`.") == true)
            return report
        }
        let finding = try #require(report.findings(.sharedContainer).first)
        #expect(report.findings(.sharedContainer).count == 1)
        #expect(finding.severity == .information)
        #expect(finding.nodes == ["Checkout/CheckoutModel", "shared/\(finding.path[1])"])
        #expect(finding.path.map(\.type) == ["CheckoutModel", "Analytics"])
    }

    @Test func anInjectGivenItsContainerIsNoReadOfTheSharedContainer() throws {
        let report = try DependencyContainer.withShared(DependencyContainer(name: "shared")) {
            container.register { [unowned container] in ModuleModel(container: container) }
            return try container.validate()
        }
        #expect(report.findings(.sharedContainer).isEmpty)
        #expect(report.edges.allSatisfy { !$0.crossesContainers })
    }

    @Test func aContainerThatCollaboratesWithTheSharedOneMayReadIt() throws {
        let shared = DependencyContainer(name: "shared")
        let report = try DependencyContainer.withShared(shared) {
            container.register { CheckoutModel() }
            container.collaborate(with: shared)
            return try container.validate()
        }
        #expect(report.edges.contains { $0.crossesContainers })
        #expect(report.findings(.sharedContainer).isEmpty)
    }

    @Test func theSharedContainerReadingItselfIsNoFinding() throws {
        let shared = DependencyContainer(name: "shared")
        let report = try DependencyContainer.withShared(shared) {
            shared.register { CheckoutModel() }
            return try shared.validate()
        }
        #expect(report.edges.count == 1)
        #expect(report.findings(.sharedContainer).isEmpty)
    }

    @Test func mergingReportsKeepsReadsOfTheSharedContainer() throws {
        let merged = try DependencyContainer.withShared(DependencyContainer(name: "shared")) {
            container.register { CheckoutModel() }
            let root = DependencyContainer(name: "Root")
            root.register { CheckoutModel() }
            return GraphReport(merging: [try container.validate(), try root.validate(), try container.validate()])
        }
        #expect(
            merged.findings(.sharedContainer).map(\.nodes.first) == ["Checkout/CheckoutModel", "Root/CheckoutModel"])
    }

    @Test func mergingReportsWorksFindingsOutOnTheJoinedGraph() throws {
        let root = DependencyContainer(name: "Root")
        root.register(.unique) { Formatter() }
        container.register(.singleton) { [unowned container] in Session(formatter: try container.resolve()) }
        container.collaborate(with: root)
        let rootReport = try root.validate()
        #expect(rootReport.findings(.unused).flatMap(\.nodes) == ["Root/Formatter"])
        let merged = GraphReport(merging: [rootReport, try container.validate()])
        #expect(merged.containers == [.init(name: "Root", validated: true), .init(name: "Checkout", validated: true)])
        #expect(merged.findings(.unused).flatMap(\.nodes) == ["Checkout/Session"])
        #expect(merged.findings(.captiveDependency).count == 1)
        #expect(merged.nodes.count == 2)
    }
}
