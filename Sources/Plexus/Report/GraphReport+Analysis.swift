extension GraphReport {
    /// A report of several reports together: for an app with one container per module, validate each and merge,
    /// so that what one module's definitions use in another is seen at once.
    ///
    /// ```swift
    /// let app = GraphReport(merging: try [root, eventsList, addEvent].map { try $0.validate() })
    /// ```
    ///
    /// Containers, nodes and edges are joined by name and ``Node/id`` (so give containers distinct names);
    /// captive dependencies, cycles and unused definitions are worked out again on the joined graph (a
    /// definition one module leaves unused may be used by another); shadowed definitions and reads of the shared
    /// container are kept.
    /// - Parameter reports: The reports to join, in order.
    public init(merging reports: [GraphReport]) {
        var containers: [Container] = []
        var nodes: [Node] = []
        var nodeIndex: [String: Int] = [:]
        var edges: [Edge] = []
        var seenEdges = Set<Edge>()
        var kept: [Finding] = []
        for report in reports {
            for container in report.containers {
                if let index = containers.firstIndex(where: { $0.name == container.name }) {
                    containers[index].validated = containers[index].validated || container.validated
                } else {
                    containers.append(container)
                }
            }
            for node in report.nodes {
                if let index = nodeIndex[node.id] {
                    nodes[index].dependenciesKnown = nodes[index].dependenciesKnown || node.dependenciesKnown
                } else {
                    nodeIndex[node.id] = nodes.count
                    nodes.append(node)
                }
            }
            for edge in report.edges where seenEdges.insert(edge).inserted { edges.append(edge) }
            for finding in report.findings where finding.kind.needsLiveContainers && !kept.contains(finding) {
                kept.append(finding)
            }
        }
        self.init(containers: containers, nodes: nodes, edges: edges, findings: [])
        findings = analysed(kept: kept)
    }

    /// The findings worked out from the nodes and edges, with the `kept` ones (shadowed definitions and reads of the
    /// shared container, which need the live containers) in their place: captive dependencies, cycles, the kept
    /// ones, unused.
    func analysed(kept: [Finding]) -> [Finding] {
        let graph = Adjacency(self)
        return captiveDependencies(graph) + cycles(graph) + kept + unused(graph)
    }

    /// The nodes and edges as indexes, for walking.
    struct Adjacency {
        var outgoing: [[(to: Int, kind: Edge.Kind)]]
        var hasIncoming: [Bool]

        init(_ report: GraphReport) {
            var index: [String: Int] = [:]
            for (position, node) in report.nodes.enumerated() { index[node.id] = position }
            outgoing = Array(repeating: [], count: report.nodes.count)
            hasIncoming = Array(repeating: false, count: report.nodes.count)
            for edge in report.edges {
                guard let from = index[edge.from], let to = index[edge.to] else { continue }
                outgoing[from].append((to, edge.kind))
                if from != to { hasIncoming[to] = true }
            }
        }
    }

    // MARK: Captive dependencies

    private func captiveDependencies(_ graph: Adjacency) -> [Finding] {
        var findings: [Finding] = []
        for (start, holder) in nodes.enumerated() where holder.scope.isLongLived {
            // Breadth first through short-lived instances only: a long-lived one on the way has findings of its own.
            var parent: [Int: Int] = [start: start]
            var queue = [start]
            var position = 0
            while position < queue.count {
                let current = queue[position]
                position += 1
                for (next, _) in graph.outgoing[current] where parent[next] == nil && !nodes[next].scope.isLongLived {
                    parent[next] = current
                    queue.append(next)
                    var path = [next]
                    while let last = path.last, last != start, let previous = parent[last] { path.append(previous) }
                    findings.append(captive(Array(path.reversed())))
                }
            }
        }
        return findings
    }

    private func captive(_ path: [Int]) -> Finding {
        let holder = nodes[path[0]]
        let captive = nodes[path[path.count - 1]]
        var sentence =
            "The \(holder.scope) \(holder.key.type) in \(located(holder)) depends on the \(captive.scope) "
            + "\(captive.key.type) in \(captive.container)"
        if path.count == 2 {
            sentence += " directly"
        } else {
            let through = path.dropFirst().dropLast().map { "\(nodes[$0].key.type) (\(nodes[$0].scope))" }
            sentence += " through " + through.joined(separator: ", ")
        }
        sentence +=
            ", so it keeps that instance alive for as long as it lives: make \(captive.key.type) a singleton, or "
            + "resolve it where it is used."
        return Finding(
            kind: .captiveDependency, severity: .warning, path: path.map { nodes[$0].key },
            nodes: path.map { nodes[$0].id }, description: sentence)
    }

    // MARK: Cycles

    private func cycles(_ graph: Adjacency) -> [Finding] {
        var findings: [Finding] = []
        var seen = Set<[Int]>()
        for (from, targets) in graph.outgoing.enumerated() {
            for (to, kind) in targets where kind.isProperty {
                guard let back = shortestPath(from: to, to: from, graph) else { continue }
                // from -> to -> … -> (from again, left out here)
                let cycle = from == to ? [from] : [from, to] + back.dropLast()
                let first = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
                let rotated = Array(cycle[first...] + cycle[..<first])
                guard seen.insert(rotated).inserted else { continue }
                findings.append(closedCycle(rotated + [rotated[0]], graph))
            }
        }
        return findings
    }

    /// The nodes after `start` on a shortest path from `start` to `end`, `end` included; `nil` if none.
    private func shortestPath(from start: Int, to end: Int, _ graph: Adjacency) -> [Int]? {
        if start == end { return [end] }
        var parent: [Int: Int] = [start: start]
        var queue = [start]
        var position = 0
        while position < queue.count {
            let current = queue[position]
            position += 1
            for (next, _) in graph.outgoing[current] where parent[next] == nil {
                parent[next] = current
                if next == end {
                    var path = [end]
                    while let last = path.last, let previous = parent[last], previous != start { path.append(previous) }
                    return path.reversed()
                }
                queue.append(next)
            }
        }
        return nil
    }

    private func closedCycle(_ cycle: [Int], _ graph: Adjacency) -> Finding {
        let names = cycle.map { "\(nodes[$0].key.type) (\(nodes[$0].container))" }
        let closers = zip(cycle, cycle.dropFirst()).compactMap { from, to -> String? in
            graph.outgoing[from].contains { $0.to == to && $0.kind.isProperty }
                ? "\(nodes[from].key.type) -> \(nodes[to].key.type)" : nil
        }
        let sentence =
            "\(names.joined(separator: " -> ")) is a cycle closed by "
            + (closers.count == 1 ? "the property injection " : "the property injections ")
            + closers.joined(separator: ", ") + ": it resolves, because properties are set once every instance exists."
        return Finding(
            kind: .cycle, severity: .information, path: cycle.map { nodes[$0].key }, nodes: cycle.map { nodes[$0].id },
            description: sentence)
    }

    // MARK: Unused

    private func unused(_ graph: Adjacency) -> [Finding] {
        let validated = Set(containers.filter(\.validated).map(\.name))
        return nodes.indices.compactMap { index in
            let node = nodes[index]
            // Every kind made with `register` (async and main-actor definitions too); a typed accessor's node is
            // named by its accessor, so it is never unused.
            guard validated.contains(node.container), !graph.hasIncoming[index], node.kind != .typedAccessor else {
                return nil
            }
            return Finding(
                kind: .unused, severity: .information, path: [node.key], nodes: [node.id],
                description:
                    "Nothing in the graph depends on \(node.key) in \(located(node)), and no accessor names it: it is "
                    + "only resolved from outside the containers, or not needed.")
        }
    }

    /// `Container (File.swift:12)`, or the container alone when the site is unknown.
    func located(_ node: Node) -> String {
        node.site.map { "\(node.container) (\($0))" } ?? node.container
    }
}

extension GraphReport.Finding.Kind {
    /// Whether only the recorder can find these, with the live containers at hand, so that a merged report keeps
    /// them as its parts found them.
    var needsLiveContainers: Bool {
        switch self {
        case .shadowed, .sharedContainer: true
        case .captiveDependency, .cycle, .unused: false
        }
    }
}

extension ComponentScope {
    /// Whether instances live as long as their container: what may hold others captive.
    var isLongLived: Bool {
        switch self {
        case .singleton, .eagerSingleton, .cached: true
        case .unique, .shared, .weakSingleton: false
        }
    }
}
