/// The registries of the containers a definition is registered with, held weakly: adding one is O(1), and entries of
/// freed registries are pruned whenever the table has doubled since the last pruning, so short-lived containers cost
/// amortized O(1) and leave nothing behind. The first registry is held inline: most definitions are registered in one
/// container, and a table for one entry would be a heap block per definition.
///
/// The registry, not the container, is held weakly: a weak reference gives its object a side table, and every
/// retain and release of an object with a side table takes the runtime's slow path. Containers are retained and
/// released throughout a resolve; their registries hardly ever. What a definition changes later (hooks, forwarding
/// registrations) is all in the registry itself.
struct Registrations {
    fileprivate struct WeakRegistry {
        weak var registry: Protected<Registry>?
    }

    private var first = WeakRegistry()

    /// The registries after the first, made when a second container registers the definition. Kept with the
    /// definition's rarely used state (`DefinitionState`), so that a definition in one container keeps one word here.
    final class Others {
        fileprivate var entries: [ObjectIdentifier: WeakRegistry] = [:]
        fileprivate var prunedCount = 0
    }

    /// Records the registry of `container` (once); returns whether it was not recorded before: then the definition
    /// has never been registered there. `others` is made when a second registry is recorded.
    mutating func add(_ container: DependencyContainer, others: inout Others?) -> Bool {
        let registry = container.registry
        if first.registry === registry { return false }
        if first.registry == nil, others == nil {
            first.registry = registry
            return true
        }
        if others == nil { others = Others() }
        guard let others else { return false }
        let id = ObjectIdentifier(registry)
        // A freed registry's address may be reused by a new one: its dead entry is simply replaced.
        if others.entries[id]?.registry === registry { return false }
        others.entries[id] = WeakRegistry(registry: registry)
        if others.entries.count > max(8, 2 * others.prunedCount) {
            others.entries = others.entries.filter { $0.value.registry != nil }
            others.prunedCount = others.entries.count
        }
        return true
    }

    /// Republishes `definition`'s `recipe` to each registry still alive (`Registry+Facade.swift`); returns the
    /// recipes it replaced, to be released after the definition's lock.
    func refresh(_ definition: AnyObject, recipe: Recipe, others: Others?) -> [Recipe] {
        registries(others).compactMap { $0.refresh(definition, recipe: recipe) }
    }

    /// Adds `forward` to `definition`'s slot in each registry still alive; returns what it replaced, to be released
    /// after the definition's lock.
    func addForward(_ forward: Forward, of definition: AnyObject, others: Others?) -> Released {
        var released = Released()
        for registry in registries(others) { released.append(registry.addForward(forward, of: definition)) }
        return released
    }

    /// The registries still alive.
    private func registries(_ others: Others?) -> [Protected<Registry>] {
        var alive = others?.entries.values.compactMap(\.registry) ?? []
        if let registry = first.registry { alive.insert(registry, at: 0) }
        return alive
    }
}
