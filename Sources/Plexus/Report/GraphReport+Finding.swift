extension GraphReport {
    /// Something the report noticed, with the path of definitions that shows it.
    ///
    /// ```swift
    /// let report = try container.validate()
    /// #expect(report.findings(.captiveDependency).isEmpty, "\(report.findings)")
    /// ```
    public struct Finding: Sendable, Codable, Hashable, CustomStringConvertible {
        /// What was found.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// A `.singleton`, `.eagerSingleton` or `.cached` instance depends, directly or through short-lived
            /// instances, on a `.unique`, `.shared` or `.weakSingleton` one, and so keeps it alive for as long as it
            /// lives. Path: the long-lived node first, the captive one last.
            case captiveDependency
            /// A cycle closed by a property hook or an injected property: fine, listed so that it is known. Path:
            /// the cycle, its first node repeated at the end. (A cycle only initializers could close makes
            /// `validate` throw ``ResolutionError/circularDependency(path:)`` instead: no report then.)
            case cycle
            /// A definition registered for the same key in a container and in one of its collaborators: the
            /// container's own answers there, so the collaborator's is never used through it. Path: the key twice,
            /// the container's node first.
            case shadowed
            /// A definition whose factory reads a typed accessor from ``DependencyContainer/shared``, a container its
            /// own container does not collaborate with: what `@Inject` and `@LazyInject` do unless given
            /// `container:` (information: it may be meant). Path: the definition, then the accessor's node in the
            /// shared container.
            case sharedContainer
            /// A definition of a validated container that nothing in the graph depends on and no accessor names
            /// (information: it may be resolved only from outside). Path: that node.
            case unused
        }

        /// How much a finding matters.
        public enum Severity: String, Sendable, Codable, Hashable, Comparable {
            /// Worth knowing; nothing is wrong (a cycle closed by a hook, an unused definition, a read of the shared
            /// container).
            case information
            /// Probably a mistake (a captive dependency, a shadowed definition).
            case warning

            /// `information` before `warning`.
            public static func < (lhs: Severity, rhs: Severity) -> Bool {
                lhs == .information && rhs == .warning
            }
        }

        /// What was found. JSON field `kind`.
        public var kind: Kind
        /// How much it matters. JSON field `severity`.
        public var severity: Severity
        /// The keys along the path that shows it. JSON field `path`.
        public var path: [Key]
        /// The ``Node/id``s along the same path. JSON field `nodes`.
        public var nodes: [String]
        /// A sentence naming the types and containers. JSON field `description`.
        public var description: String

        /// Creates a finding.
        /// - Parameters:
        ///   - kind: What was found.
        ///   - severity: How much it matters.
        ///   - path: The keys along the path.
        ///   - nodes: The node ids along the path.
        ///   - description: The sentence.
        public init(kind: Kind, severity: Severity, path: [Key], nodes: [String], description: String) {
            self.kind = kind
            self.severity = severity
            self.path = path
            self.nodes = nodes
            self.description = description
        }
    }
}
