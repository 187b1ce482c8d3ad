extension GraphRecorder {
    /// The report of what was recorded while `validated` was validated: its own definitions (reached or not), every
    /// definition met, the edges, shadowed definitions in the containers met, and the findings.
    func report(validating validated: DependencyContainer) -> GraphReport {
        let own = validated.slotsInOrder()
        for slot in own { node(for: slot, owner: validated) }
        let shadowing = shadowedPairs()

        var owners: [DependencyContainer] = [validated]
        for record in nodes where !owners.contains(where: { $0 === record.owner }) { owners.append(record.owner) }
        // A repeated name gets the first free " #N": a container may itself be named like that ("Root #2").
        var taken = Set<String>()
        var repeats: [String: Int] = [:]
        let names = owners.map { container -> String in
            var name = container.name
            var count = repeats[container.name] ?? 1
            while taken.contains(name) {
                count += 1
                name = "\(container.name) #\(count)"
            }
            repeats[container.name] = count
            taken.insert(name)
            return name
        }
        func name(of container: DependencyContainer) -> String {
            names[owners.firstIndex { $0 === container } ?? 0]
        }

        let reportNodes = nodes.map { record -> GraphReport.Node in
            let key = GraphReport.Key(record.slot.key)
            let container = name(of: record.owner)
            let isAccessor =
                record.slot.blueprint.isMadeByPlexus || accessorKeys.contains(record.slot.key)
                || record.owner.hasAccessorDefault(record.slot.key)
            return GraphReport.Node(
                id: "\(container)/\(key)", key: key, scope: record.slot.scope, container: container,
                site: record.slot.site.map { GraphReport.Site(file: "\($0.file)", line: Int($0.line)) },
                kind: kind(isAccessor: isAccessor, record.slot.blueprint.isolation),
                dependenciesKnown: record.factoryRan)
        }
        let reportEdges = edges.map { edge in
            GraphReport.Edge(
                from: reportNodes[edge.from].id, to: reportNodes[edge.to].id, kind: edge.kind,
                crossesContainers: nodes[edge.from].owner !== nodes[edge.to].owner)
        }
        let containers = names.enumerated().map { GraphReport.Container(name: $1, validated: $0 == 0) }
        var report = GraphReport(containers: containers, nodes: reportNodes, edges: reportEdges, findings: [])
        let shadowed = shadowing.map { own, hidden in
            let (mine, theirs) = (reportNodes[own], reportNodes[hidden])
            return GraphReport.Finding(
                kind: .shadowed, severity: .warning, path: [mine.key, theirs.key], nodes: [mine.id, theirs.id],
                description:
                    "\(mine.key) is registered in \(report.located(mine)) and in its collaborator "
                    + "\(report.located(theirs)): resolves through \(mine.container) get \(mine.container)'s "
                    + "definition, never \(theirs.container)'s. Remove one, or tag them apart.")
        }
        report.findings = report.analysed(kept: shadowed + sharedReads(reportNodes, report))
        return report
    }

    /// The accessors that definitions of other containers read from ``DependencyContainer/shared`` without
    /// collaborating with it: what `@Inject` and `@LazyInject` do unless given `container:`. An accessor called on a
    /// container registers its default there, so an accessor edge into the shared container's node comes from a
    /// read of that container itself, or from an override there that a collaboration finds (not reported).
    private func sharedReads(_ reportNodes: [GraphReport.Node], _ report: GraphReport) -> [GraphReport.Finding] {
        let shared = DependencyContainer.shared
        var readers: [ObjectIdentifier: Bool] = [:]
        return edges.compactMap { edge -> GraphReport.Finding? in
            let (reader, owner) = (nodes[edge.from].owner, nodes[edge.to].owner)
            guard edge.kind == .typedAccessor, owner === shared, reader !== shared else { return nil }
            let collaborates: Bool
            if let known = readers[ObjectIdentifier(reader)] {
                collaborates = known
            } else {
                collaborates = reader.reachable().contains { $0 === shared }
                readers[ObjectIdentifier(reader)] = collaborates
            }
            guard !collaborates else { return nil }
            let (from, to) = (reportNodes[edge.from], reportNodes[edge.to])
            return GraphReport.Finding(
                kind: .sharedContainer, severity: .information, path: [from.key, to.key], nodes: [from.id, to.id],
                description:
                    "\(from.key.type) in \(report.located(from)) reads \(to.key.type) from DependencyContainer.shared "
                    + "(named \"\(to.container)\" here), which \(from.container) does not collaborate with: `@Inject` "
                    + "and `@LazyInject` resolve from DependencyContainer.shared unless given `container:`. Pass "
                    + "`container:` to read \(from.container)'s accessor, or leave it if the shared container is "
                    + "meant.")
        }
    }

    /// For every container met, the definitions registered under a key that one of its collaborators (directly or
    /// transitively) also registers: (the container's node, the hidden one's node). Adds the hidden definitions as
    /// nodes. Takes one container's lock at a time.
    private func shadowedPairs() -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        var checked: [DependencyContainer] = []
        var position = 0
        while position < nodes.count {
            let owner = nodes[position].owner
            position += 1
            guard !checked.contains(where: { $0 === owner }) else { continue }
            checked.append(owner)
            let entries = owner.entriesInOrder()
            for other in owner.reachable().dropFirst() {
                for (mine, theirs) in other.definitions(hiddenBy: entries) {
                    pairs.append((node(for: mine, owner: owner), node(for: theirs, owner: other)))
                }
            }
        }
        return pairs
    }

    /// What a node is: a typed accessor, or a definition by where its factory runs.
    private func kind(isAccessor: Bool, _ isolation: FactoryIsolation) -> GraphReport.Node.Kind {
        if isAccessor { return .typedAccessor }
        switch isolation {
        case .none: return .definition
        case .async: return .asyncDefinition
        case .mainActor: return .mainActorDefinition
        }
    }
}
