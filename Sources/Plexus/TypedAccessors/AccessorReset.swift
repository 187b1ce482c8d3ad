/// What `reset(_:)` of a typed accessor forgets in its container.
///
/// ```swift
/// container.analytics.reset()          // .all: the override and the kept instance
/// container.analytics.reset(.scope)    // only the kept instance: the next call makes a new one
/// ```
public enum AccessorReset: Hashable, Sendable {
    /// The override made in the container (assignment, `replace`, `register` under the key) and the instances kept
    /// for the key: the accessor starts over from its declared default.
    case all
    /// Only the override, with the instances a ``ParameterFactory`` keeps per argument (the override may have made
    /// them); the next call uses the declared default (or a collaborator's override).
    case override
    /// Only the instances kept for the key (a singleton, a cached or weak singleton, the instances a
    /// ``ParameterFactory`` keeps per argument); the override stays.
    case scope
}

extension DependencyContainer {
    /// Forgets what `options` says about the typed accessor key `key` in this container; decorators stay.
    func resetAccessor(_ key: DefinitionKey, _ options: AccessorReset) {
        forgetAccessor(key, override: options != .scope, instances: options != .override)
        // A `ParameterFactory`'s instances belong to the definition that made them.
        dropParameterInstances(key)
    }
}
