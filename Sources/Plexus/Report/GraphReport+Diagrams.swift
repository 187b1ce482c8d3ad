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
        for edge in edges {
            var attributes: [String]
            switch edge.kind {
            case .factory: attributes = []
            case .autoWired: attributes = ["arrowhead=empty", "label=\"auto-wired\""]
            case .propertyHook: attributes = ["style=dashed", "label=\"hook\""]
            case .autoInjected: attributes = ["style=dotted", "label=\"@Injected\""]
            case .typedAccessor: attributes = ["style=bold", "label=\"accessor\""]
            }
            if edge.crossesContainers { attributes.append("color=\"#1f6feb\", penwidth=2") }
            let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("  \(dotQuoted(edge.from)) -> \(dotQuoted(edge.to))\(suffix);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart (GitHub renders it in Markdown): one `subgraph` per container, a box per
    /// definition, dashed arrows for property hooks and injected properties, thick ones for typed accessors, and
    /// container crossings coloured blue with a `linkStyle` line.
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
        var crossing: [Int] = []
        for (index, edge) in edges.enumerated() {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            let arrow =
                switch edge.kind {
                case .factory: "-->"
                case .autoWired: "-->|auto-wired|"
                case .propertyHook: "-.->|hook|"
                case .autoInjected: "-.->|@Injected|"
                case .typedAccessor: "==>|accessor|"
                }
            lines.append("  \(from) \(arrow) \(to)")
            if edge.crossesContainers { crossing.append(index) }
        }
        if !crossing.isEmpty {
            lines.append(
                "  linkStyle \(crossing.map(String.init).joined(separator: ",")) stroke:#1f6feb,stroke-width:2px")
        }
        return lines.joined(separator: "\n") + "\n"
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
