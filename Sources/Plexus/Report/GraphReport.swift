/// What ``DependencyContainer/validate(_:)-2t1ea`` saw while it built every definition: the definitions it met (nodes),
/// who resolved whom (edges), and what looks wrong or noteworthy (findings). See <doc:SeeingYourGraph>.
///
/// ```swift
/// let report = try checkout.validate()
/// for finding in report.findings where finding.kind == .captiveDependency {
///     print(finding)   // The singleton PaymentService in Checkout … keeps a unique Formatter alive …
/// }
/// try report.dot.write(toFile: "checkout.dot", atomically: true, encoding: .utf8)
/// ```
///
/// A report is a plain value: `Sendable`, `Equatable` and `Codable`. ``json`` encodes it with the field names
/// documented on each property, which are stable: tools may read them.
///
/// Edges are recorded only while `validate` runs, on its thread; ordinary resolves record nothing and pay nothing.
/// `validate` builds a singleton made before it once more for itself (without replacing it), so the report is the
/// same before and after the app resolved it.
public struct GraphReport: Sendable, Codable, Equatable {
    /// The containers met, in the order met; the validated one first. JSON field `containers`.
    public var containers: [Container]
    /// The definitions met, in the order met. JSON field `nodes`.
    public var nodes: [Node]
    /// Who resolved whom while being built, without duplicates. JSON field `edges`.
    public var edges: [Edge]
    /// Captive dependencies, cycles closed by property hooks, shadowed definitions, reads of the shared container and
    /// unused definitions. JSON field `findings`.
    public var findings: [Finding]

    /// Creates a report from its parts; ``DependencyContainer/validate(_:)-2t1ea`` makes them for you.
    /// - Parameters:
    ///   - containers: The containers.
    ///   - nodes: The definitions.
    ///   - edges: The edges between them.
    ///   - findings: The findings.
    public init(containers: [Container], nodes: [Node], edges: [Edge], findings: [Finding]) {
        self.containers = containers
        self.nodes = nodes
        self.edges = edges
        self.findings = findings
    }

    /// The node with the identifier `id`, if the report has it.
    /// - Parameter id: A ``Node/id``, as edges and findings name nodes.
    /// - Returns: The node.
    public func node(_ id: String) -> Node? {
        nodes.first { $0.id == id }
    }

    /// The nodes whose key has the type `type` (any tag or arguments), compared by the type's name, as the report
    /// holds it.
    /// - Parameter type: The registered type.
    /// - Returns: Those nodes, in report order.
    public func nodes(of type: Any.Type) -> [Node] {
        let name = typeName(type)
        return nodes.filter { $0.key.type == name }
    }

    /// The findings of one kind.
    /// - Parameter kind: The kind to keep.
    /// - Returns: Those findings, in report order.
    public func findings(_ kind: Finding.Kind) -> [Finding] {
        findings.filter { $0.kind == kind }
    }
}

extension GraphReport {
    /// A ``DefinitionKey`` in text: `DefinitionKey` holds metatypes, which cannot be encoded, so reports carry this
    /// mirror. Compare with a key through ``init(_:)``: `GraphReport.Key(DefinitionKey(type: Api.self, …))`.
    public struct Key: Sendable, Codable, Hashable, CustomStringConvertible {
        /// The type, in Swift spelling (`Optional<Service>`). JSON field `type`.
        public var type: String
        /// The runtime arguments (`(Int, String)`), `nil` for none. JSON field `arguments`.
        public var arguments: String?
        /// The tag as messages write it (`"prod"`, `42`), `nil` for none. JSON field `tag`.
        public var tag: String?

        /// The text form of `key`.
        /// - Parameter key: A definition key.
        public init(_ key: DefinitionKey) {
            type = typeName(key.type)
            arguments = key.typeOfArguments == Void.self ? nil : argumentsName(key.typeOfArguments)
            tag = key.tag.map { "\($0)" }
        }

        /// The key as ``DefinitionKey/description`` writes it: `Api (tag: "prod", arguments: (Int))`.
        public var description: String {
            var details: [String] = []
            if let tag { details.append("tag: \(tag)") }
            if let arguments { details.append("arguments: \(arguments)") }
            return details.isEmpty ? type : type + " (" + details.joined(separator: ", ") + ")"
        }
    }

    /// Where `register` was called: the file as `#fileID` gives it and the line.
    public struct Site: Sendable, Codable, Hashable, CustomStringConvertible {
        /// `Module/File.swift`. JSON field `file`.
        public var file: String
        /// The line of the call. JSON field `line`.
        public var line: Int

        /// Creates a site.
        /// - Parameters:
        ///   - file: The `#fileID` of the call.
        ///   - line: The line of the call.
        public init(file: String, line: Int) {
            self.file = file
            self.line = line
        }

        /// `Module/File.swift:12`.
        public var description: String { "\(file):\(line)" }
    }

    /// A container of the report.
    public struct Container: Sendable, Codable, Hashable {
        /// Its ``DependencyContainer/name``, made unique within the report (`"Root #2"` for a second container
        /// named `Root`). Nodes name their container by it. JSON field `name`.
        public var name: String
        /// Whether `validate` was called on it (every definition of it was built), not only met through
        /// collaboration. JSON field `validated`.
        public var validated: Bool

        /// Creates a container entry.
        /// - Parameters:
        ///   - name: The unique name.
        ///   - validated: Whether it was validated.
        public init(name: String, validated: Bool) {
            self.name = name
            self.validated = validated
        }
    }

    /// One definition, in the container that owns it.
    public struct Node: Sendable, Codable, Hashable, Identifiable {
        /// What a node stands for.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// A definition made with `register`.
            case definition
            /// A typed accessor: its declared default or an override under its key.
            case typedAccessor
            /// A definition with an `async` factory, made by `try await resolve()`.
            case asyncDefinition
            /// A definition with a `@MainActor` factory.
            case mainActorDefinition
        }

        /// `"<container>/<key>"`, unique within the report; edges and findings name nodes by it. JSON field `id`.
        public var id: String
        /// The key it was registered under first. JSON field `key`.
        public var key: Key
        /// Its scope. JSON field `scope` (the case name: `"singleton"`).
        public var scope: ComponentScope
        /// The name of the container that owns it (a ``Container/name``). JSON field `container`.
        public var container: String
        /// Where it was registered; `nil` for a typed accessor's declared default. JSON field `site`.
        public var site: Site?
        /// What it stands for. JSON field `kind`.
        public var kind: Kind
        /// Whether its factory ran while recording, so that its outgoing edges are all known; `false` for a
        /// definition `validate` met but did not build (one that a shadowing definition hides). JSON field
        /// `dependenciesKnown`.
        public var dependenciesKnown: Bool

        /// Creates a node.
        /// - Parameters:
        ///   - id: The unique identifier.
        ///   - key: The key.
        ///   - scope: The scope.
        ///   - container: The owning container's name.
        ///   - site: Where it was registered.
        ///   - kind: What it stands for.
        ///   - dependenciesKnown: Whether its outgoing edges are all known.
        public init(
            id: String, key: Key, scope: ComponentScope, container: String, site: Site?, kind: Kind,
            dependenciesKnown: Bool
        ) {
            self.id = id
            self.key = key
            self.scope = scope
            self.container = container
            self.site = site
            self.kind = kind
            self.dependenciesKnown = dependenciesKnown
        }
    }

    /// A resolve made while building an instance: `from`'s factory or hooks asked for `to`.
    public struct Edge: Sendable, Codable, Hashable {
        /// How the instance asked.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// Its factory resolved it.
            case factory
            /// It is an argument of its factory, resolved by auto-wiring.
            case autoWired
            /// A `resolvingProperties` hook or `Resolvable.resolveDependencies` resolved it.
            case propertyHook
            /// An `@Injected` / `@InjectedWeak` property was filled with it.
            case autoInjected
            /// Its factory resolved it through a typed accessor.
            case typedAccessor

            /// Whether the dependency is set after the instance exists (a hook or an injected property), which is
            /// what lets a cycle close.
            public var isProperty: Bool { self == .propertyHook || self == .autoInjected }
        }

        /// The ``Node/id`` of the instance that asked. JSON field `from`.
        public var from: String
        /// The ``Node/id`` of the definition that answered. JSON field `to`.
        public var to: String
        /// How it asked. JSON field `kind`.
        public var kind: Kind
        /// Whether the two nodes belong to different containers (collaboration). JSON field `crossesContainers`.
        public var crossesContainers: Bool

        /// Creates an edge.
        /// - Parameters:
        ///   - from: The asking node's id.
        ///   - to: The answering node's id.
        ///   - kind: How it asked.
        ///   - crossesContainers: Whether the nodes are in different containers.
        public init(from: String, to: String, kind: Kind, crossesContainers: Bool) {
            self.from = from
            self.to = to
            self.kind = kind
            self.crossesContainers = crossesContainers
        }
    }
}

extension ComponentScope: Codable {
    /// Decodes a scope from its case name (`"singleton"`), as ``GraphReport/json`` writes it.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` for another name.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let scope = ComponentScope.allCases.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "No scope named \(name)"))
        }
        self = scope
    }

    /// Encodes the scope as its case name (`"singleton"`).
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
