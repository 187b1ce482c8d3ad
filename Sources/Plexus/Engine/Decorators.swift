internal import PlexusCore

/// The decorators registered for one key, composed into one call that rewrites a freshly made instance in place.
///
/// Built by generic code that knows the instance type, so the engine applies them without knowing it: right after
/// the factory wrote the instance, before it is cached or handed over (`Slot.construct`). Attached to a slot only when
/// the slot's instances have the decorators' type.
final class Decorators: Sendable {
    /// The type of the instances the decorators take and return.
    let type: ObjectIdentifier
    /// How many decorators are composed.
    let count: Int
    /// Applies every decorator, in the order added, to the instance the storage holds (a `T`).
    let apply: @Sendable (InstanceStorage) -> Void

    private init(type: ObjectIdentifier, count: Int, apply: @escaping @Sendable (InstanceStorage) -> Void) {
        self.type = type
        self.count = count
        self.apply = apply
    }

    /// These decorators followed by `decorator`; a first decorator when `existing` is `nil` or for another type.
    static func adding<T>(_ decorator: @escaping @Sendable (T) -> T, to existing: Decorators?) -> Decorators {
        let type = ObjectIdentifier(T.self)
        let apply: @Sendable (InstanceStorage) -> Void = { storage in
            storage.withInstance(of: T.self) { $0 = decorator($0) }
        }
        guard let existing, existing.type == type else { return Decorators(type: type, count: 1, apply: apply) }
        let previous = existing.apply
        return Decorators(type: type, count: existing.count + 1) { storage in
            previous(storage)
            apply(storage)
        }
    }

    /// These decorators if the engine applies them to instances of `blueprint`, else `nil`.
    func matching(_ blueprint: Blueprint) -> Decorators? {
        ObjectIdentifier(blueprint.type) == type && !blueprint.decoratesItself ? self : nil
    }

    /// `instance` passed through every decorator, in the order added, if they take a `T`; else unchanged. For a
    /// factory that decorates its instances itself (`Blueprint.decoratesItself`).
    func applied<T>(to instance: T) -> T {
        guard ObjectIdentifier(T.self) == type else { return instance }
        var instance = instance
        InstanceStorage.withInitialized(&instance, apply)
        return instance
    }
}
