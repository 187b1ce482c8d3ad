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
    private struct WeakRegistry {
        weak var registry: Protected<Registry>?
    }

    private var first = WeakRegistry()
    /// The registries after the first, made when a second container registers the definition.
    private var others: Others?

    private final class Others {
        var entries: [ObjectIdentifier: WeakRegistry] = [:]
        var prunedCount = 0
    }

    /// Records the registry of `container` (once); returns whether it was not recorded before: then the definition
    /// has never been registered there.
    @discardableResult
    mutating func add(_ container: DependencyContainer) -> Bool {
        let registry = container.registry
        if first.registry === registry { return false }
        if first.registry == nil, others == nil {
            first.registry = registry
            return true
        }
        // The state is never copied (it lives in its definition), so changing `others` in place changes this one.
        let others = self.others ?? Others()
        self.others = others
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
    func refresh(_ definition: AnyObject, recipe: Recipe) -> [Recipe] {
        registries.compactMap { $0.refresh(definition, recipe: recipe) }
    }

    /// Adds `forward` to `definition`'s slot in each registry still alive; returns what it replaced, to be released
    /// after the definition's lock.
    func addForward(_ forward: Forward, of definition: AnyObject) -> Released {
        var released = Released()
        for registry in registries { released.append(registry.addForward(forward, of: definition)) }
        return released
    }

    /// The registries still alive.
    private var registries: [Protected<Registry>] {
        var alive = others?.entries.values.compactMap(\.registry) ?? []
        if let registry = first.registry { alive.insert(registry, at: 0) }
        return alive
    }

    /// Whether the registry of `container` is one of them.
    func contains(_ container: DependencyContainer) -> Bool {
        first.registry === container.registry
            || others?.entries[ObjectIdentifier(container.registry)]?.registry === container.registry
    }
}
