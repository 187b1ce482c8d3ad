internal import PlexusCore

/// Collects the nodes and edges of a ``GraphReport`` while `validate` resolves.
///
/// `validate` hangs one recorder on its thread's resolution graph (`ResolutionGraph.State.recorder`) for as long as
/// it runs; the lookup tells it about every definition it is about to produce (`record`), and the recorder reads
/// the graph's top frame to learn who asked: a factory frame (the factory, or auto-wiring while its arguments are
/// resolved), a hooks frame (a property hook, `resolveDependencies` or `didResolveDependencies`) or a property
/// frame (auto-injection). Resolves without a recorder pay one `nil` test on the general path; while any recorder
/// is active (`ActiveRecorders`, the core's ProcessWide.swift), resolves on every thread leave the fast path, so
/// that no edge hides there.
///
/// A factory that does not run shows no edges, so the validating thread never reuses an instance of a caching scope
/// made before `validate` began (by `bootstrap`, a resolve, or an earlier `validate`): the lookup asks the recorder
/// (`record` returns what to do instead), which has the factory build one more instance for this validation alone,
/// kept here (`made`) and never published. An instance not made yet is made and published as any resolve would.
///
/// Only the validating thread touches a recorder: it lives in that thread's graph state.
final class GraphRecorder {
    struct NodeRecord {
        let slot: Slot
        let owner: DependencyContainer
        /// Whether the slot's factory ran while recording (so its outgoing edges are all known).
        var factoryRan = false
    }

    struct EdgeRecord: Hashable {
        let from: Int
        let to: Int
        let kind: GraphReport.Edge.Kind
    }

    private(set) var nodes: [NodeRecord] = []
    private(set) var edges: [EdgeRecord] = []
    private var edgeSet: Set<EdgeRecord> = []
    private var nodeBySlot: [ObjectIdentifier: Int] = [:]
    /// The node whose instance was last created for a requested key: hook frames name their instance by the key
    /// it was requested with.
    private var nodeByInstanceKey: [DefinitionKey: Int] = [:]
    /// Per node whose factory is auto-wired: how many of its argument resolves are still to come. The arguments
    /// are resolved one after the other before the factory runs, so its first edges are the auto-wired ones.
    private var pendingArguments: [Int: Int] = [:]
    /// The keys resolved through typed accessors while recording.
    private(set) var accessorKeys: Set<DefinitionKey> = []
    /// Frames below this count were on the stack before recording began (a `validate` inside a resolve).
    private var baseFrames = 0
    /// The instance of each caching-scope slot built while recording, published or not, by slot (`nodes` keeps each
    /// slot alive, so no identifier is reused): what the rest of this validation gets for it, as a resolve gets a
    /// singleton once made. Released with the recorder, after `validate` has detached it.
    private var made: [ObjectIdentifier: InstanceBox] = [:]

    /// Whether a recorder is active on any thread: one relaxed atomic load, inlined into the resolve path.
    @inline(__always)
    static var isActive: Bool { ActiveRecorders.any }

    /// Typed accessors: `key` is about to be resolved through an accessor on this thread.
    static func noteAccessor(_ key: DefinitionKey) {
        ResolutionGraph.current.state.recorder?.accessorKeys.insert(key)
    }

    /// Runs `body` with this recorder on the calling thread's resolution graph.
    func recording<R>(_ body: () throws -> R) rethrows -> R {
        let graph = ResolutionGraph.current
        let previous = attach(to: graph)
        defer { detach(from: graph, restoring: previous) }
        return try body()
    }

    /// Runs `body` with this recorder on `graph`, a task's graph that the async `validate` resolves in.
    func recording<R>(on graph: ResolutionGraph, _ body: () async throws -> R) async throws -> R {
        let previous = attach(to: graph)
        defer { detach(from: graph, restoring: previous) }
        return try await body()
    }

    /// Hangs this recorder on `graph` and counts it as active; returns the recorder it replaced.
    private func attach(to graph: ResolutionGraph) -> GraphRecorder? {
        let previous = graph.state.recorder
        baseFrames = graph.state.frames.count
        graph.state.recorder = self
        ActiveRecorders.countIn()
        return previous
    }

    /// Undoes `attach`.
    private func detach(from graph: ResolutionGraph, restoring previous: GraphRecorder?) {
        ActiveRecorders.countOut()
        graph.state.recorder = previous
    }

    /// The lookup found `slot` of `owner` for `requested` and is about to produce it, as `acquisition` says (its
    /// factory runs for `.construct`), with `arguments` (auto-wired or given). Returns how to produce it instead: for a
    /// caching scope, never an instance made before recording began (see `fresh`).
    @inline(never)
    func record(
        _ slot: Slot, owner: DependencyContainer, requested: DefinitionKey, _ given: Acquisition,
        _ arguments: ArgumentSource, graph: ResolutionGraph
    ) -> Acquisition {
        let acquisition = fresh(given, of: slot, owner: owner)
        var creates = false
        if case .construct = acquisition { creates = true }
        var autoWires = false
        if case .autoWire = arguments { autoWires = true }
        let target = node(for: slot, owner: owner)
        if let (from, kind) = asker(in: graph, target: requested) {
            let edge = EdgeRecord(from: from, to: target, kind: kind)
            if edgeSet.insert(edge).inserted { edges.append(edge) }
        }
        if creates {
            nodes[target].factoryRan = true
            nodeByInstanceKey[requested] = target
            pendingArguments[target] = autoWires ? slot.blueprint.argumentCount : nil
        }
        return acquisition
    }

    /// What to produce for `slot` instead of what its scope holds: the instance this validation made, or, when the
    /// scope offers an instance made before (or one another thread is making), its factory run again with no claim,
    /// so that the instance is not published. Its cycle check still holds: the factory's frame names the slot.
    private func fresh(_ acquisition: Acquisition, of slot: Slot, owner: DependencyContainer) -> Acquisition {
        guard slot.scope.isSingleton else { return acquisition }
        if case .construct = acquisition { return acquisition }
        if let box = made[ObjectIdentifier(slot)] { return .cached(box) }
        return owner.registry.withLock { _ in
            .construct(Construction(recipe: slot.recipe, claim: nil, typeInfo: slot.typeInfo))
        }
    }

    /// The factory of the caching-scope `slot` made `box` while recording (`Slot.store`).
    func keep(_ box: InstanceBox, of slot: Slot) {
        made[ObjectIdentifier(slot)] = box
    }

    /// Where the instance last created for `key` was registered: `Checkout (Checkout/Module.swift:12)`.
    func location(ofInstance key: DefinitionKey) -> String? {
        guard let index = nodeByInstanceKey[key] else { return nil }
        let record = nodes[index]
        return record.slot.site.map { "\(record.owner.name) (\($0.text))" } ?? record.owner.name
    }

    /// The node of `slot`, added on first sight.
    @discardableResult
    func node(for slot: Slot, owner: DependencyContainer) -> Int {
        if let index = nodeBySlot[ObjectIdentifier(slot)] { return index }
        nodes.append(NodeRecord(slot: slot, owner: owner))
        nodeBySlot[ObjectIdentifier(slot)] = nodes.count - 1
        return nodes.count - 1
    }

    /// Who is asking, from the innermost frame of the graph: the node and how it asks; `nil` for a resolve started
    /// by `validate` itself.
    private func asker(in graph: ResolutionGraph, target: DefinitionKey) -> (Int, GraphReport.Edge.Kind)? {
        let frames = graph.state.frames.elements
        guard frames.count > baseFrames, let top = frames.last else { return nil }
        switch top.kind {
        case .factory(let slot, _):
            guard let from = nodeBySlot[slot] else { return nil }
            if let remaining = pendingArguments[from], remaining > 0 {
                pendingArguments[from] = remaining - 1
                return (from, .autoWired)
            }
            return (from, accessorKeys.contains(target) ? .typedAccessor : .factory)
        case .hooks, .made:
            return hooked(top).map { ($0, .propertyHook) }
        case .property:
            // Auto-injection runs inside the hooks frame of the instance that holds the property.
            guard frames.count - 1 > baseFrames else { return nil }
            let holder = frames[frames.count - 2]
            switch holder.kind {
            case .hooks, .made: return hooked(holder).map { ($0, .autoInjected) }
            case .factory, .property: return nil
            }
        }
    }

    /// The node whose hooks run in a hooks frame (or a `.made` one).
    private func hooked(_ frame: ResolutionGraph.Frame) -> Int? {
        switch frame.kind {
        case .made(let key): nodeByInstanceKey[key.value]
        case .hooks(let context), .property(let context): nodeByInstanceKey[context.value.key]
        case .factory: nil
        }
    }
}
