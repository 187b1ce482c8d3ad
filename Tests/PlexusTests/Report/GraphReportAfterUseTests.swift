import Plexus
import PlexusTesting
import Testing

private final class Formatter {}
private final class Session {
    init(formatter: Formatter) {}
}
private final class Logger {}
private final class Left {
    var right: Right?
}
private final class Right {
    let left: Left
    init(left: Left) { self.left = left }
}

/// A report does not depend on what the container made before `validate`: bootstrap, resolves, an earlier validate.
@Suite(.silencingPlexusLogs) struct GraphReportAfterUseTests {
    /// A long-lived `Session` that holds a unique `Formatter` (a captive dependency), and a `Logger` nothing uses.
    private static func checkout(_ scope: ComponentScope, runs: Counter = Counter()) -> DependencyContainer {
        let container = DependencyContainer(name: "Checkout")
        container.register(.unique) { Formatter() }
        container.register(scope) { [unowned container] in
            runs.increment()
            return Session(formatter: try container.resolve())
        }
        container.register(.singleton) { Logger() }
        return container
    }

    @Test func bootstrapThenValidateSeesWhatAnEagerSingletonDependsOn() throws {
        let container = Self.checkout(.eagerSingleton)
        try container.bootstrap()
        let report = try container.validate()
        #expect(report.findings(.unused).map(\.nodes) == [["Checkout/Session"], ["Checkout/Logger"]])
        #expect(report.findings(.captiveDependency).map(\.nodes) == [["Checkout/Session", "Checkout/Formatter"]])
        #expect(report.node("Checkout/Session")?.dependenciesKnown == true)
        #expect(report == (try Self.checkout(.eagerSingleton).validate()))
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton, .cached, .weakSingleton])
    func resolvingALongLivedInstanceFirstLeavesTheReportAsOnAFreshContainer(scope: ComponentScope) throws {
        let container = Self.checkout(scope)
        let session: Session = try container.resolve()
        let report = try container.validate()
        #expect(report == (try Self.checkout(scope).validate()))
        #expect(!report.findings(.unused).contains { $0.nodes == ["Checkout/Formatter"] })
        withExtendedLifetime(session) {}
    }

    @Test func validatingTwiceReportsTheSameFindings() throws {
        let container = Self.checkout(.singleton)
        let first = try container.validate()
        let second = try container.validate()
        #expect(first.findings(.captiveDependency).count == 1)
        #expect(second.findings == first.findings)
        #expect(second == first)
    }

    @Test func asyncValidateAfterAResolveSeesTheSameGraph() async throws {
        let container = Self.checkout(.singleton)
        let _: Session = try await container.resolve()
        let report = try await container.validate()
        #expect(report == (try await Self.checkout(.singleton).validate()))
    }

    /// A cycle closed by a property hook of a singleton made before `validate` still closes on the instance that
    /// `validate` builds, and is listed.
    @Test func aCycleThroughASingletonMadeBeforeIsStillListed() throws {
        func make() -> DependencyContainer {
            let container = DependencyContainer(name: "Checkout")
            container.register { [unowned container] in Right(left: try container.resolve()) }
            container.register(.singleton) { Left() }
                .resolvingProperties { container, left in left.right = try container.resolve() }
            return container
        }
        let container = make()
        let left: Left = try container.resolve()
        let report = try container.validate()
        #expect(report.findings(.cycle).map { $0.path.map(\.type) } == [["Right", "Left", "Right"]])
        #expect(report == (try make().validate()))
        #expect(try container.resolve() as Left === left)
    }

    /// What `validate` costs for that: a factory whose instance exists runs once more, for an instance the container
    /// never hands out; an instance that does not exist yet is made once and kept.
    @Test func validateKeepsTheInstancesTheContainerHolds() throws {
        let runs = Counter()
        let container = Self.checkout(.singleton, runs: runs)
        let session: Session = try container.resolve()
        try container.validate()
        #expect(runs.count == 2)
        #expect(try container.resolve() as Session === session)

        let freshRuns = Counter()
        let fresh = Self.checkout(.singleton, runs: freshRuns)
        try fresh.validate()
        let made: Session = try fresh.resolve()
        #expect(freshRuns.count == 1)
        #expect(try fresh.resolve() as Session === made)
    }
}
