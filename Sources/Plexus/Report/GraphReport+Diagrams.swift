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
    /// An edge on the path of a captive dependency is drawn orange and labelled `captive`, and a legend cluster
    /// explains every style.
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
        lines.append(contentsOf: mermaidLegend(firstLink: link))
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

    /// The legend of `dot`: one sample edge per style, in a cluster of its own.
    private var dotLegend: [String] {
        let samples: [(String, String)] = [
            ("factory", ""),
            ("auto-wired", "arrowhead=empty"),
            ("hook", "style=dashed"),
            ("@Injected", "style=dotted"),
            ("accessor", "style=bold"),
            ("crosses containers", "color=\"#1f6feb\", penwidth=2"),
            ("captive", "color=\"#e67e22\", fontcolor=\"#e67e22\", penwidth=2"),
        ]
        var lines = [
            "  subgraph cluster_legend {",
            "    label=\"Legend\";",
            "    style=\"rounded\"; color=\"#bbbbbb\";",
            "    node [shape=point, width=0.05, label=\"\"];",
        ]
        for (index, sample) in samples.enumerated() {
            let attributes = ["label=\(dotQuoted(sample.0))"] + (sample.1.isEmpty ? [] : [sample.1])
            lines.append(
                "    \"legend_\(index)_from\" -> \"legend_\(index)_to\" [\(attributes.joined(separator: ", "))];")
        }
        lines.append("    \"legend_accessor\" [shape=component, width=0.3, height=0.2, label=\"typed accessor\"];")
        lines.append(
            "    \"legend_captive\" [shape=box, style=\"rounded\", color=\"#e67e22\", penwidth=2, label=\"in a finding\"];"
        )
        lines.append("  }")
        return lines
    }

    /// The legend of `mermaid`: a subgraph of sample edges, whose links are numbered from `firstLink`.
    private func mermaidLegend(firstLink: Int) -> [String] {
        [
            "  subgraph legend[\"Legend\"]",
            "    legend0[\"definition\"] -->|factory| legend1[/\"typed accessor\"/]",
            "    legend2[\" \"] -.->|hook or @Injected| legend3[\" \"]",
            "    legend4[\" \"] ==>|accessor| legend5[\" \"]",
            "    legend6[\" \"] -->|crosses containers| legend7[\" \"]",
            "    legend8[\" \"] -->|captive| legend9[\" \"]",
            "  end",
            "  linkStyle \(firstLink + 3) stroke:#1f6feb,stroke-width:2px",
            "  linkStyle \(firstLink + 4) stroke:#e67e22,stroke-width:2px",
        ]
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
