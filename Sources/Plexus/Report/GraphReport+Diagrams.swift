extension GraphReport {
    /// The graph in Graphviz's DOT language: one `subgraph cluster_N` per container, a box per definition (type,
    /// tag, scope, registration site), edges styled per kind, container crossings drawn thick and blue, and nodes
    /// named by a finding outlined in orange. Render it with `dot -Tsvg graph.dot -o graph.svg`.
    ///
    /// | edge kind | style |
    /// | --- | --- |
    /// | factory | solid |
    /// | auto-wired | solid, hollow arrowhead, labelled `auto-wired` |
    /// | property hook | dashed, labelled `hook` |
    /// | auto-injected | dotted, labelled `@Injected` |
    /// | typed accessor | bold, labelled `accessor` |
    ///
    /// An edge on the path of a captive dependency is drawn orange and labelled `captive`, and a small legend
    /// explains the styles of the graph that carry no label.
    public var dot: String {
        var lines = [
            "digraph Plexus {",
            "  rankdir=LR;",
            "  compound=true;",
            "  graph [fontname=\"Helvetica\", fontsize=12];",
            "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        let flagged = Set(findings.filter { $0.severity == .warning }.flatMap(\.nodes))
        for (index, container) in containers.enumerated() {
            lines.append("  subgraph cluster_\(index) {")
            lines.append("    label=\(dotQuoted(container.name));")
            lines.append("    style=\"rounded\"; color=\"#888888\";")
            for node in nodes where node.container == container.name {
                var attributes = ["label=\(dotQuoted(label(node, separator: "\n")))"]
                if node.kind == .typedAccessor { attributes.append("shape=component") }
                if flagged.contains(node.id) { attributes.append("color=\"#e67e22\", penwidth=2") }
                if !node.dependenciesKnown { attributes.append("style=\"rounded,dashed\"") }
                lines.append("    \(dotQuoted(node.id)) [\(attributes.joined(separator: ", "))];")
            }
            lines.append("  }")
        }
        let captive = captiveEdges
        for edge in edges {
            var attributes: [String]
            let label: String?
            switch edge.kind {
            case .factory: (attributes, label) = ([], nil)
            case .autoWired: (attributes, label) = (["arrowhead=empty"], "auto-wired")
            case .propertyHook: (attributes, label) = (["style=dashed"], "hook")
            case .autoInjected: (attributes, label) = (["style=dotted"], "@Injected")
            case .typedAccessor: (attributes, label) = (["style=bold"], "accessor")
            }
            let isCaptive = captive.contains(EdgeEnds(from: edge.from, to: edge.to))
            let labels = [label, isCaptive ? "captive" : nil].compactMap { $0 }
            if !labels.isEmpty { attributes.append("label=\(dotQuoted(labels.joined(separator: ", ")))") }
            if isCaptive {
                attributes.append("color=\"#e67e22\", fontcolor=\"#e67e22\", penwidth=2")
            } else if edge.crossesContainers {
                attributes.append("color=\"#1f6feb\", penwidth=2")
            }
            let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("  \(dotQuoted(edge.from)) -> \(dotQuoted(edge.to))\(suffix);")
        }
        lines.append(contentsOf: dotLegend)
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart (GitHub renders it in Markdown): one `subgraph` per container, a box per
    /// definition, dashed arrows for property hooks and injected properties, thick ones for typed accessors,
    /// container crossings coloured blue and the edges of a captive dependency orange (labelled `captive`) with
    /// `linkStyle` lines, and a legend subgraph.
    ///
    /// ````markdown
    /// ```mermaid
    /// flowchart LR
    ///   subgraph c0["Root"]
    ///   …
    /// ```
    /// ````
    public var mermaid: String {
        var lines = ["flowchart LR"]
        var ids: [String: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node.id] = "n\(index)" }
        for (index, container) in containers.enumerated() {
            lines.append("  subgraph c\(index)[\"\(mermaidEscaped(container.name))\"]")
            for node in nodes where node.container == container.name {
                let text = mermaidEscaped(label(node, separator: "\n")).replacingNewlines(with: "<br/>")
                let shape = node.kind == .typedAccessor ? ("[/\"", "\"/]") : ("[\"", "\"]")
                lines.append("    \(ids[node.id] ?? "")\(shape.0)\(text)\(shape.1)")
            }
            lines.append("  end")
        }
        let captive = captiveEdges
        var crossing: [Int] = []
        var captiveLinks: [Int] = []
        var link = 0
        for edge in edges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            let isCaptive = captive.contains(EdgeEnds(from: edge.from, to: edge.to))
            let (arrow, label): (String, String?) =
                switch edge.kind {
                case .factory: ("-->", nil)
                case .autoWired: ("-->", "auto-wired")
                case .propertyHook: ("-.->", "hook")
                case .autoInjected: ("-.->", "@Injected")
                case .typedAccessor: ("==>", "accessor")
                }
            let labels = [label, isCaptive ? "captive" : nil].compactMap { $0 }
            let text = labels.isEmpty ? "" : "|\(mermaidEscaped(labels.joined(separator: ", ")))|"
            lines.append("  \(from) \(arrow)\(text) \(to)")
            if isCaptive {
                captiveLinks.append(link)
            } else if edge.crossesContainers {
                crossing.append(link)
            }
            link += 1
        }
        lines.append(contentsOf: mermaidLegend)
        if !crossing.isEmpty {
            lines.append(
                "  linkStyle \(crossing.map(String.init).joined(separator: ",")) stroke:#1f6feb,stroke-width:2px")
        }
        if !captiveLinks.isEmpty {
            lines.append(
                "  linkStyle \(captiveLinks.map(String.init).joined(separator: ",")) stroke:#e67e22,stroke-width:2px")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The two ends of an edge.
    private struct EdgeEnds: Hashable {
        let from: String
        let to: String
    }

    /// The edges on the path of a captive dependency: from the long-lived instance towards the short-lived one.
    private var captiveEdges: Set<EdgeEnds> {
        var result = Set<EdgeEnds>()
        for finding in findings where finding.kind == .captiveDependency {
            for (from, to) in zip(finding.nodes, finding.nodes.dropFirst()) {
                result.insert(EdgeEnds(from: from, to: to))
            }
        }
        return result
    }

    /// What the styles of this graph that carry no label of their own mean, one line each: labelled edges
    /// (`hook`, `accessor`, `captive`, …) explain themselves, so the legend stays a few lines beside any graph.
    private var legendLines: [String] {
        var lines: [String] = []
        if edges.contains(where: { $0.kind == .factory }) { lines.append("plain arrow: a factory resolves it") }
        if nodes.contains(where: { $0.kind == .typedAccessor }) { lines.append("tabbed box: a typed accessor") }
        if edges.contains(where: \.crossesContainers) { lines.append("blue: crosses containers") }
        if findings.contains(where: { $0.severity == .warning }) { lines.append("orange: in a finding") }
        if nodes.contains(where: { !$0.dependenciesKnown }) { lines.append("dashed box: dependencies not known") }
        return lines
    }

    /// The legend of `dot`: one note, in a cluster of its own, with the lines of `legendLines`.
    private var dotLegend: [String] {
        let lines = legendLines
        guard !lines.isEmpty else { return [] }
        return [
            "  subgraph cluster_legend {",
            "    label=\"Legend\";",
            "    style=\"rounded\"; color=\"#bbbbbb\";",
            "    \"legend\" [shape=plaintext, fontsize=9, label=\(dotQuoted(lines.joined(separator: "\n")))];",
            "  }",
        ]
    }

    /// The legend of `mermaid`: one note in a subgraph of its own, with the lines of `legendLines`.
    private var mermaidLegend: [String] {
        let lines = legendLines
        guard !lines.isEmpty else { return [] }
        let text = lines.map(mermaidEscaped).joined(separator: "<br/>")
        return ["  subgraph legend[\"Legend\"]", "    legend0[\"\(text)\"]", "  end"]
    }

    /// A node's label: type, tag and arguments, then scope, then the registration site.
    private func label(_ node: Node, separator: String) -> String {
        var lines = [node.key.type]
        if let tag = node.key.tag { lines.append("tag: \(tag)") }
        if let arguments = node.key.arguments { lines.append("arguments: \(arguments)") }
        switch node.kind {
        case .typedAccessor: lines.append("\(node.scope) (accessor)")
        case .asyncDefinition: lines.append("\(node.scope) (async)")
        case .mainActorDefinition: lines.append("\(node.scope) (@MainActor)")
        case .definition: lines.append("\(node.scope)")
        }
        if let site = node.site { lines.append("\(site)") }
        return lines.joined(separator: separator)
    }
}

/// `text` as a DOT quoted string: quotes and backslashes escaped, new lines as DOT's centred line break `\n`.
func dotQuoted(_ text: String) -> String {
    var result = "\""
    for character in text {
        switch character {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default: result.append(character)
        }
    }
    return result + "\""
}

/// `text` for a quoted Mermaid label: quotes, angle brackets and other markup characters as Mermaid's entity codes.
func mermaidEscaped(_ text: String) -> String {
    var result = ""
    for character in text {
        switch character {
        case "\"": result += "#quot;"
        case "<": result += "#lt;"
        case ">": result += "#gt;"
        case "#": result += "#35;"
        case "[": result += "#91;"
        case "]": result += "#93;"
        case "{": result += "#123;"
        case "}": result += "#125;"
        case "|": result += "#124;"
        default: result.append(character)
        }
    }
    return result
}

extension String {
    fileprivate func replacingNewlines(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
