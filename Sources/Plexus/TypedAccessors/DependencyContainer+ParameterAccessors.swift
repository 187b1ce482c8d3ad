// Typed accessors that take a runtime argument (`ParameterFactory`): one definition per key, taking the argument, as
// a keyed `register { (id: Int) in … }` makes; for `.singleton` storage the container keeps the instances per argument
// value.

/// A reference to a definition's `ParameterInstances` that does not keep it.
struct WeakParameterInstances {
    weak var instances: ParameterInstances?
}

extension DependencyContainer {
    /// A new keeper of instances per argument value for a definition of the singleton `ParameterFactory` key `key`,
    /// each made by `blueprint`, remembered (weakly) so that resets, overrides and decorators of the key drop its
    /// instances.
    func keepParameterInstances(for key: DefinitionKey, blueprint: Blueprint) -> ParameterInstances {
        let instances = ParameterInstances(
            key: key, name: "\(name) \(key.tag.map { "\($0)" } ?? "") instances", blueprint: blueprint)
        parameterKeepers.withLock { keepers in
            var live = keepers.byKey[key, default: []].filter { $0.instances != nil }
            live.append(WeakParameterInstances(instances: instances))
            keepers.byKey[key] = live
        }
        return instances
    }

    /// Registers an override for a `ParameterFactory` key, which replaces any earlier override and drops the instances
    /// kept for the key.
    @usableFromInline
    func registerParameterOverride<P: Sendable, T>(
        _ key: DefinitionKey, storage: ComponentScope, make: @escaping @Sendable (P) throws -> T,
        build: ParameterFactoryBuilder<P, T>
    ) {
        register(
            parameterBlueprint(key, storage: storage, make: make, build: build), key: key,
            hash: KeyTable<Slot>.hash(key), recipe: Recipe.plain)
        dropParameterInstances(key)
    }

    /// Adds a decorator for a `ParameterFactory` key and drops the instances kept for it.
    func addParameterDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        addDecorator(key, decorator)
        dropParameterInstances(key)
    }

    /// Drops the instances kept for a `ParameterFactory` key, by each of its definitions.
    func dropParameterInstances(_ key: DefinitionKey) {
        for keeper in parameterKeepers.withLock({ $0.byKey[key] ?? [] }) { keeper.instances?.drop() }
    }

    /// Drops the instances kept for every `ParameterFactory` key (a reset, a restored snapshot).
    func dropParameterInstances() {
        for keeper in parameterKeepers.withLock({ Array($0.byKey.values.joined()) }) { keeper.instances?.drop() }
    }
}

/// What each definition of a singleton typed accessor taking a runtime argument keeps per argument value, by key.
///
/// A struct of its own, not generic: a container's lock around a dictionary type would instantiate that type's
/// metadata with every new container, and with it the Swift runtime's check that `DefinitionKey` is `Hashable` (the
/// first such check walks every protocol conformance the process has loaded). Its metadata is needed only once a
/// parameter accessor keeps something.
struct ParameterKeepers {
    var byKey: [DefinitionKey: [WeakParameterInstances]] = [:]
}
