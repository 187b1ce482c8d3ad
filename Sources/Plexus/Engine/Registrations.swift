internal import PlexusCore

/// The registries of the containers a definition is registered with, each reached through its container's
/// `RegistryLink`: adding one is O(1), and entries of freed registries are pruned whenever the table has doubled since
/// the last pruning, so short-lived containers cost amortized O(1) and leave only their small links behind until then.
/// The first link is held inline: most definitions are registered in one container, and a table for one entry would
/// be a heap block per definition.
///
/// A definition holds the link strongly and the link holds the registry weakly: a weak reference of the definition's
/// own would cost each registration a weak store (and each definition's end its destruction), where a strong one is a
/// retain; and a link that outlives its container keeps no slot, so no cycle of definition, registry and slot forms.
struct Registrations {
    private var first: RegistryLink?

    /// The links after the first, made when a second container registers the definition. Kept with the definition's
    /// rarely used state (`DefinitionState`), so that a definition in one container keeps one word here.
    final class Others {
        fileprivate var entries: [ObjectIdentifier: RegistryLink] = [:]
        fileprivate var prunedCount = 0
    }

    /// Records the registry of `container` (once); returns whether it was not recorded before: then the definition
    /// has never been registered there. `others` is made when a second registry is recorded.
    mutating func add(_ container: DependencyContainer, others: inout Others?) -> Bool {
        let link = container.registryLink
        if first === link { return false }
        if others == nil, first == nil || first?.registry == nil {
            first = link
            return true
        }
        if others == nil { others = Others() }
        guard let others else { return false }
        // Held strongly, a link's address names it alone: no entry of a freed link can be met again.
        let id = ObjectIdentifier(link)
        if others.entries[id] != nil { return false }
        others.entries[id] = link
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
        if let registry = first?.registry { alive.insert(registry, at: 0) }
        return alive
    }
}

/// A container's registry as the definitions registered there reach it (`Registrations`): one per container, made with
/// it, held strongly by those definitions; it holds the registry weakly.
final class RegistryLink: Sendable {
    /// `nil` once the container is gone.
    weak let registry: Protected<Registry>?

    init(_ registry: Protected<Registry>) {
        self.registry = registry
    }
}
