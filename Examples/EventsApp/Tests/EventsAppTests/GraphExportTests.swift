import EventsApp
import Foundation
import Plexus
import Root
import Testing

/// Writes the app's graph where CI (`.ci/examples`) checks it and the docs' picture is made from:
/// `$PLEXUS_GRAPH_DIR`, or `Examples/EventsApp/.build-graph/` (git-ignored).
@Suite struct GraphExportTests {
    let app = AppContainers()

    private var folder: URL {
        if let path = ProcessInfo.processInfo.environment["PLEXUS_GRAPH_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // Tests/EventsAppTests/GraphExportTests.swift -> the package folder.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build-graph", isDirectory: true)
    }

    @Test func writesTheAppGraphAsDOTAndJSON() throws {
        let report = try app.graphReport()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try report.dot.write(to: folder.appendingPathComponent("EventsApp.dot"), atomically: true, encoding: .utf8)
        try report.json.write(to: folder.appendingPathComponent("EventsApp.json"), atomically: true, encoding: .utf8)
        try report.mermaid.write(
            to: folder.appendingPathComponent("EventsApp.mermaid"), atomically: true, encoding: .utf8)

        let written = try Data(contentsOf: folder.appendingPathComponent("EventsApp.json"))
        #expect(try JSONDecoder().decode(GraphReport.self, from: written) == report)
    }

    @Test func theGraphShowsEveryModuleAndTheirLinks() throws {
        let report = try app.graphReport()
        #expect(report.containers.map(\.name) == ["Root", "EventsList", "AddEvent"])
        #expect(report.containers.allSatisfy { $0.validated })
        // The list's wireframe uses the root's store across modules, and the add-event form through its hook.
        #expect(report.edges.contains { $0.from == "EventsList/EventsListWireframe" && $0.to == "Root/DataStore" })
        #expect(
            report.edges.contains {
                $0.from == "AddEvent/AddEventWireframe" && $0.to.hasPrefix("EventsList/") && $0.kind == .propertyHook
            })
        #expect(report.edges.filter { $0.crossesContainers }.count >= 3)
        // The two wireframes point at each other through property hooks: a cycle that closes.
        #expect(report.findings(.cycle).count == 1)
        #expect(report.findings(.captiveDependency).isEmpty)
        #expect(report.findings(.shadowed).isEmpty)
    }
}
