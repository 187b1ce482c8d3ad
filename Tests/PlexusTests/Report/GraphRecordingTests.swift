import Plexus
import PlexusTesting
import Testing

private final class Api {}
private final class Presenter {
    init(api: Api) {}
}

@Suite(.silencingPlexusLogs) struct GraphRecordingTests {
    let container = DependencyContainer(name: "App")

    @Test func resolvesOutsideValidateRecordNothing() throws {
        container.register { Api() }
        container.register(.unique) { [unowned container] in Presenter(api: try container.resolve()) }
        for _ in 0..<3 { _ = try container.resolve() as Presenter }
        // A report only holds what its own validation met: the resolves above left nothing behind.
        let empty = DependencyContainer(name: "Empty")
        let report = try empty.validate()
        #expect(report.nodes.isEmpty)
        #expect(report.edges.isEmpty)
        #expect(report.containers.map(\.name) == ["Empty"])
    }

    @Test func eachValidationRecordsItsOwnGraph() throws {
        container.register { Api() }
        container.register(.unique) { [unowned container] in Presenter(api: try container.resolve()) }
        let first = try container.validate()
        _ = try container.resolve() as Presenter
        let second = try container.validate()
        #expect(first == second)
        #expect(second.edges.count == 1)
    }

    @Test func aResolveInsideAFactoryDuringValidateIsRecordedButNotAfterwards() throws {
        let other = DependencyContainer(name: "Other")
        other.register { Api() }
        container.register(.unique) { Presenter(api: try other.resolve()) }
        let report = try container.validate()
        #expect(report.edges.map(\.to) == ["Other/Api"])
        // Resolving afterwards goes back to the shortcuts: the same instances, nothing recorded.
        _ = try container.resolve() as Presenter
        #expect(try other.validate().edges.isEmpty)
    }
}
