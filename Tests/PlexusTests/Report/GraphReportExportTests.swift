import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Api {}
private final class Presenter {
    init(api: Api) {}
}
private final class View {
    var presenter: Presenter?
}
private struct Box<Value> {}

@Suite(.silencingPlexusLogs) struct GraphReportExportTests {
    let root = DependencyContainer(name: "Root")
    let feature = DependencyContainer(name: "Feature \"One\"")

    /// Two containers: Presenter (Feature) resolves Api (Root); View's hook resolves Presenter.
    private func report() throws -> GraphReport {
        root.register(.singleton, tag: "prod") { Api() }
        feature.register(.unique) { [unowned feature] in Presenter(api: try feature.resolve(tag: "prod")) }
        feature.register { View() }
            .resolvingProperties { container, view in view.presenter = try container.resolve() }
        feature.register { Box<[Int: String]>() }
        feature.collaborate(with: root)
        return try feature.validate()
    }

    @Test func dotHasAClusterPerContainerAndStylesEdgesPerKind() throws {
        let dot = try report().dot
        #expect(dot.hasPrefix("digraph Plexus {\n"))
        #expect(dot.hasSuffix("}\n"))
        #expect(dot.contains("subgraph cluster_0 {\n    label=\"Feature \\\"One\\\"\";"))
        #expect(dot.contains("subgraph cluster_1 {\n    label=\"Root\";"))
        // The crossing edge is drawn thick and blue; the hook edge dashed.
        #expect(
            dot.contains(
                ##""Feature \"One\"/Presenter" -> "Root/Api (tag: \"prod\")" [color="#1f6feb", penwidth=2];"##))
        #expect(dot.contains(#""Feature \"One\"/View" -> "Feature \"One\"/Presenter" [style=dashed, label="hook"];"#))
        // Two containers and the legend.
        #expect(dot.components(separatedBy: "subgraph cluster_").count == 4)
        #expect(dot.contains("subgraph cluster_legend {"))
        #expect(dot.contains("Box<Dictionary<Int, String>>"))
    }

    @Test func legendIsOneNoteNamingOnlyTheStylesTheGraphUses() throws {
        let report = try report()
        let dot = report.dot
        let legend = dot.components(separatedBy: "subgraph cluster_legend {").last ?? ""
        #expect(legend.split(separator: "\n").count <= 5)
        #expect(legend.contains("plain arrow: a factory resolves it\\nblue: crosses containers"))
        #expect(!legend.contains("typed accessor") && !legend.contains("orange"))
        let mermaid = report.mermaid
        #expect(mermaid.contains("    legend0[\"plain arrow: a factory resolves it<br/>blue: crosses containers\"]"))
        #expect(!mermaid.contains("legend1"))
    }

    @Test func dotQuotesEveryIdentifier() throws {
        let dot = try report().dot
        // Every quote inside a quoted string is escaped: an even number of unescaped quotes per line.
        for line in dot.split(separator: "\n") {
            let unescaped = line.replacingOccurrences(of: "\\\"", with: "").filter { $0 == "\"" }.count
            #expect(unescaped % 2 == 0, "\(line)")
        }
    }

    @Test func mermaidHasASubgraphPerContainerAndEscapesLabels() throws {
        let mermaid = try report().mermaid
        let lines = mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart LR")
        #expect(lines.filter { $0.hasPrefix("  subgraph c") }.count == 2)
        // Two containers and the legend.
        #expect(lines.filter { $0 == "  end" }.count == 3)
        #expect(lines.contains("  subgraph legend[\"Legend\"]"))
        #expect(lines.contains("  subgraph c0[\"Feature #quot;One#quot;\"]"))
        #expect(mermaid.contains("Box#lt;Dictionary#lt;Int, String#gt;#gt;"))
        #expect(!mermaid.contains("Box<"))
        #expect(lines.contains { $0.contains(" -.->|hook| ") })
        #expect(lines.contains { $0.hasPrefix("  linkStyle ") && $0.contains("stroke:#1f6feb") })
    }

    @Test func jsonDecodesBackToAnEqualReport() throws {
        let report = try report()
        let decoded = try JSONDecoder().decode(GraphReport.self, from: Data(report.json.utf8))
        #expect(decoded == report)
        #expect(!decoded.nodes.isEmpty)
        #expect(!decoded.edges.isEmpty)
    }

    @Test func jsonAndTheCodableEncodingHaveTheSameFields() throws {
        let report = try report()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let fromEncoder = try JSONSerialization.jsonObject(with: encoder.encode(report)) as? NSDictionary
        let fromReport = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? NSDictionary
        // The same fields; `json` writes absent values as null where the encoder leaves them out.
        #expect(fromEncoder?.allKeys.count == fromReport?.allKeys.count)
        let decoded = try JSONDecoder().decode(GraphReport.self, from: encoder.encode(report))
        #expect(decoded == report)
    }

    @Test func jsonUsesTheDocumentedFieldNamesWithSortedKeys() throws {
        let json = try report().json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["containers", "nodes", "edges", "findings"])
        let node = try #require((object["nodes"] as? [[String: Any]])?.first)
        #expect(Set(node.keys) == ["id", "key", "scope", "container", "site", "kind", "dependenciesKnown"])
        let edge = try #require((object["edges"] as? [[String: Any]])?.first)
        #expect(Set(edge.keys) == ["from", "to", "kind", "crossesContainers"])
        #expect(json.range(of: "\"containers\"")!.lowerBound < json.range(of: "\"edges\"")!.lowerBound)
        #expect(json.contains("\"scope\": \"singleton\""))
    }
}
