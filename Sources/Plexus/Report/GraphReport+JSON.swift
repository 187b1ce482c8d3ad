extension GraphReport {
    /// The report as pretty-printed JSON with sorted keys, stable for diffs and tools.
    ///
    /// The fields are the ones documented on each property (`containers`, `nodes`, `edges`, `findings`; a node's
    /// `id`, `key`, `scope`, `container`, `site`, `kind`, `dependenciesKnown`; and so on), with `null` for an
    /// absent value. It is what `Codable` reads: `JSONDecoder().decode(GraphReport.self, from: data)` gives the
    /// report back. Written without Foundation, so that the library does not need it.
    ///
    /// ```swift
    /// try report.json.write(toFile: ".build-graph/app.json", atomically: true, encoding: .utf8)
    /// ```
    public var json: String {
        var output = ""
        JSONValue.object([
            "containers": .array(containers.map(\.jsonValue)),
            "nodes": .array(nodes.map(\.jsonValue)),
            "edges": .array(edges.map(\.jsonValue)),
            "findings": .array(findings.map(\.jsonValue)),
        ]).write(to: &output, indent: 0)
        return output + "\n"
    }
}

/// A JSON value to print; objects print their keys sorted.
enum JSONValue {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Int)
    case bool(Bool)
    case null

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    func write(to output: inout String, indent: Int) {
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        switch self {
        case .object(let fields) where fields.isEmpty:
            output += "{}"
        case .object(let fields):
            output += "{\n"
            for (position, name) in fields.keys.sorted().enumerated() {
                output += inner
                JSONValue.string(name).write(to: &output, indent: indent + 1)
                output += ": "
                fields[name]?.write(to: &output, indent: indent + 1)
                output += position == fields.count - 1 ? "\n" : ",\n"
            }
            output += outer + "}"
        case .array(let values) where values.isEmpty:
            output += "[]"
        case .array(let values):
            output += "[\n"
            for (position, value) in values.enumerated() {
                output += inner
                value.write(to: &output, indent: indent + 1)
                output += position == values.count - 1 ? "\n" : ",\n"
            }
            output += outer + "]"
        case .string(let text):
            output += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
            output += "\""
        case .number(let value):
            output += String(value)
        case .bool(let value):
            output += value ? "true" : "false"
        case .null:
            output += "null"
        }
    }
}

extension GraphReport.Key {
    var jsonValue: JSONValue {
        .object(["type": .string(type), "arguments": .optional(arguments), "tag": .optional(tag)])
    }
}

extension GraphReport.Container {
    var jsonValue: JSONValue { .object(["name": .string(name), "validated": .bool(validated)]) }
}

extension GraphReport.Node {
    var jsonValue: JSONValue {
        .object([
            "id": .string(id), "key": key.jsonValue, "scope": .string(scope.description),
            "container": .string(container),
            "site": site.map { JSONValue.object(["file": .string($0.file), "line": .number($0.line)]) } ?? .null,
            "kind": .string(kind.rawValue), "dependenciesKnown": .bool(dependenciesKnown),
        ])
    }
}

extension GraphReport.Edge {
    var jsonValue: JSONValue {
        .object([
            "from": .string(from), "to": .string(to), "kind": .string(kind.rawValue),
            "crossesContainers": .bool(crossesContainers),
        ])
    }
}

extension GraphReport.Finding {
    var jsonValue: JSONValue {
        .object([
            "kind": .string(kind.rawValue), "severity": .string(severity.rawValue),
            "path": .array(path.map(\.jsonValue)), "nodes": .array(nodes.map(JSONValue.string)),
            "description": .string(description),
        ])
    }
}
