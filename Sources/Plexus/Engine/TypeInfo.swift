internal import PlexusCore

/// What a concrete type needs once an instance of it has been created; learned once per class (by reflection), and
/// once per definition for other types, so a type without injected properties costs nothing afterwards.
///
/// Learning costs the runtime's protocol-conformance checks, and the first check of a type walks every conformance
/// record the process has loaded (its cost grows with an app's size; `Benchmarks/launch` counts them). So a class is
/// asked one question, whether it conforms to ``CompletedAfterResolution`` (which `Resolvable` and every `@Injected`
/// box refine: the runtime answers the same question about a type seen as a stored property's type from its cache),
/// and `Resolvable` only when it does; its fields are probed for `@Injected` boxes only when the asking definition
/// auto-injects; a container that neither calls `Resolvable` nor auto-injects asks nothing; an optional is recognised
/// by its metadata, without a check, and a value that is not a class instance cannot be `Resolvable`.
struct TypeInfo {
    let type: ObjectIdentifier
    let isResolvable: Bool
    /// Whether instances have auto-injected properties; `false`, unlearned, when the asker does not auto-inject.
    let hasInjectedProperties: Bool

    /// What `instance` needs.
    /// - Parameters:
    ///   - injecting: Whether the asking definition fills `@Injected` properties; when it does not, the type's fields
    ///     are not probed.
    ///   - completing: Whether the asking container calls `Resolvable`; when it does not, the type is not checked.
    static func of(_ instance: Any, injecting: Bool, completing: Bool) -> TypeInfo {
        let dynamicType = Swift.type(of: instance)
        let type = ObjectIdentifier(dynamicType)
        // An optional's needs are those of the value inside, which may change from one instance to the next (`nil`
        // first, an injectable class later): they are checked on every instance, as the general path does.
        if isOptional(dynamicType) {
            return TypeInfo(type: type, isResolvable: completing, hasInjectedProperties: injecting)
        }
        guard injecting || completing else {
            return TypeInfo(type: type, isResolvable: false, hasInjectedProperties: false)
        }
        // A value that is not a class instance is never `Resolvable` (a class-bound protocol); its boxes are found by
        // `Mirror`, per definition.
        guard dynamicType is AnyClass else {
            return TypeInfo(
                type: type, isResolvable: false,
                hasInjectedProperties: injecting && !AutoInjector.boxes(in: instance).isEmpty)
        }
        // A class instance's needs are those of its class: learned once per class, not once per definition (paid
        // again otherwise by the first resolve after every override).
        let key = ObjectIdentifier(dynamicType)
        let cached = known.withLock { $0[key] }
        var learned = cached ?? Learned()
        if completing, learned.isResolvable == nil {
            learned.isResolvable =
                dynamicType is any CompletedAfterResolution.Type && dynamicType is any Resolvable.Type
        }
        if injecting, learned.hasInjectedProperties == nil {
            learned.hasInjectedProperties = !AutoInjector.boxes(in: instance).isEmpty
        }
        if cached != learned {
            // Merged with what another thread may have learned meanwhile, which may answer the other question.
            known.withLock { [learned] known in
                let other = known[key]
                known[key] = Learned(
                    isResolvable: learned.isResolvable ?? other?.isResolvable,
                    hasInjectedProperties: learned.hasInjectedProperties ?? other?.hasInjectedProperties)
            }
        }
        return TypeInfo(
            type: type, isResolvable: completing && learned.isResolvable == true,
            hasInjectedProperties: injecting && learned.hasInjectedProperties == true)
    }

    /// What instances of exactly `type` need, when that is known without a check: a class whose needs an instance
    /// already answered (in any container), or any type but an optional when neither question is asked; `nil`
    /// otherwise. A new definition of a type seen before starts with it, so that its first instance is not stored to
    /// be learned from.
    static func learned(_ type: Any.Type, injecting: Bool, completing: Bool) -> TypeInfo? {
        guard !isOptional(type) else { return nil }
        let identifier = ObjectIdentifier(type)
        guard injecting || completing else {
            return TypeInfo(type: identifier, isResolvable: false, hasInjectedProperties: false)
        }
        guard type is AnyClass, let learned = known.withLock({ $0[identifier] }) else { return nil }
        if completing, learned.isResolvable == nil { return nil }
        if injecting, learned.hasInjectedProperties == nil { return nil }
        return TypeInfo(
            type: identifier, isResolvable: completing && learned.isResolvable == true,
            hasInjectedProperties: injecting && learned.hasInjectedProperties == true)
    }

    /// What is known of one class; each answer is `nil` until a definition that needs it asks.
    private struct Learned: Equatable {
        var isResolvable: Bool?
        var hasInjectedProperties: Bool?
    }

    /// What each class needs, by class.
    private static let known = Protected(IdentityTable<Learned>())
}

/// Whether `type` is an `Optional`, without a conformance check: the core's `isOptionalMetadata` reads its metadata's
/// kind. Checked against every value shape by `Engine/ValueShapeTests`.
func isOptional(_ type: Any.Type) -> Bool {
    isOptionalMetadata(type)
}
