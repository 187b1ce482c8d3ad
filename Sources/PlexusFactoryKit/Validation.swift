import Plexus

extension ManagedContainer {
    /// Resolves the declarations at `roots` and reports the graph they build, with Plexus's graph report: what each
    /// declaration resolved, each one's scope, and the findings (a singleton or cached instance holding one made
    /// anew for each resolve or a graph, a captive dependency; declarations resolved twice in one graph).
    ///
    /// ```swift
    /// let report = Container.shared.validate(roots: \.checkout, \.analytics)
    /// print(report)                  // the graph, as text; report.mermaid and report.dot draw it
    /// #expect(report.findings.isEmpty)
    /// ```
    ///
    /// Factory has no such report: it comes with the Plexus registry this module runs on. A declaration with an
    /// argument (a ``ParameterFactory``) is resolved with each of `arguments` of its argument type, and logged and
    /// skipped when there is none. A cycle stops the process with its path, as any resolve of it does (a
    /// Factory-style factory cannot throw).
    /// - Parameters:
    ///   - roots: Key paths to the container's declarations: the entry points of the app.
    ///   - arguments: Arguments for the roots that take one.
    /// - Returns: The graph report.
    public func validate(roots: PartialKeyPath<Self>..., arguments: [Any] = []) -> GraphReport {
        manager.plexus.validateDeclarations {
            for root in roots {
                guard let declaration = self[keyPath: root] as? any ValidationRoot else {
                    Diagnostics.log("PlexusFactoryKit: validate(roots:) skipped \(root): it is not a declaration.")
                    continue
                }
                if !declaration.build(arguments: arguments) {
                    Diagnostics.log(
                        "PlexusFactoryKit: validate(roots:) did not build \(root): it takes an argument; pass one in "
                            + "`arguments:`.")
                }
            }
        }
    }
}

/// A declaration `validate(roots:)` resolves.
protocol ValidationRoot {
    /// Resolves the declaration (with each argument of its argument type); false when it needs one and none is given.
    func build(arguments: [Any]) -> Bool
}

extension Factory: ValidationRoot {
    func build(arguments: [Any]) -> Bool {
        _ = resolve()
        return true
    }
}

extension ParameterFactory: ValidationRoot {
    func build(arguments: [Any]) -> Bool {
        var built = false
        for case let argument as P in arguments {
            _ = resolve(argument)
            built = true
        }
        return built
    }
}
