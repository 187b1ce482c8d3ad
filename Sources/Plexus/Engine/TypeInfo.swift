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

/// Whether `type` is an `Optional`, read from its metadata's kind word (a stable part of the Swift ABI: `Optional`'s
/// kind is 0x202; a class's first word is 0 or its isa pointer, never that), so no conformance check is made.
/// Checked against every value shape by `Engine/ValueShapeTests`.
func isOptional(_ type: Any.Type) -> Bool {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x202
}

/// Fills `@Injected` / `@InjectedWeak` properties.
enum AutoInjector {
    /// The auto-injected properties of `instance`, superclass properties first, with their names.
    static func boxes(in value: Any) -> [(label: String?, box: AutoInjectedPropertyBox)] {
        // A definition registered as `T?` hands over an optional: its properties are those of the value inside.
        guard let instance = unwrapped(value) else { return [] }
        let type = Swift.type(of: instance)
        // A class with a known layout: its boxes are read at their offsets (InjectionLayout), not by `Mirror`.
        if type is AnyClass, case .fields(let fields) = InjectionLayout.of(type) {
            return InjectionLayout.fields(fields).boxes(in: instance)
        }
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: instance)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var boxes: [(label: String?, box: AutoInjectedPropertyBox)] = []
        for mirror in mirrors.reversed() {
            for child in mirror.children {
                guard let box = child.value as? AutoInjectedPropertyBox else { continue }
                let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
                boxes.append((label, box))
            }
        }
        return boxes
    }

    /// `value`, or the value inside it if it is an `Optional` (`nil` for `.none`), however deeply nested.
    private static func unwrapped(_ value: Any) -> Any? {
        guard isOptional(Swift.type(of: value)), let optional = value as? any OptionalType else { return value }
        return optional.wrappedValue.flatMap(unwrapped)
    }

    /// The tag the properties of an instance resolved under `key` inherit: `key`'s, unless `key` is a typed
    /// accessor's key in `container` (the owner of the instance's definition). An accessor's key names the accessor,
    /// it is not a tag of the graph it starts: its instance's properties resolve as those of an untagged definition.
    private static func tagPassedDown(from key: DefinitionKey?, in container: DependencyContainer)
        -> DependencyContainer.Tag?
    {
        guard let key, case .string = key.storedTag else { return key?.tag }
        // Two hashed lookups: the accessor's declared default, or an override made through the accessor (an override's
        // slot is made from a bare blueprint, as a declared default's is; a keyed definition has a `Definition`).
        // Read in place under the lock without turning the reader bias off: nothing here writes.
        let isAccessorKey = container.registry.withLockKeepingReaders { registry -> Bool in
            if Registry.isAccessorKey(key, in: registry) { return true }
            guard let slots = registry.pointer(to: \.slots) else { return false }
            return KeyTable.withBorrowedValue(in: slots, for: key) { $0.blueprint.isMadeByPlexus } ?? false
        }
        return isAccessorKey ? nil : key.tag
    }

    /// Fills the auto-injected properties of `instance`, resolved under `key` (the context its hooks run in), from
    /// `container`, the owner of its definition.
    static func inject(
        into instance: Any, resolvedAt key: DefinitionKey, container: DependencyContainer, graph: ResolutionGraph
    ) throws {
        let holder = type(of: instance)
        // A definition registered as `T?` hands over an optional: its properties are those of the value inside.
        guard isOptional(holder) else {
            return try inject(into: instance, of: holder, in: holder, resolvedAt: key, container, graph)
        }
        guard let value = unwrapped(instance) else { return }
        try inject(into: value, of: Swift.type(of: value), in: holder, resolvedAt: key, container, graph)
    }

    /// `inject(into:resolvedAt:container:graph:)` for `value`, not an optional, whose dynamic type is `type`, held by
    /// an instance of `holder` (the instance itself or the optional that wraps it).
    private static func inject(
        into value: Any, of type: Any.Type, in holder: Any.Type, resolvedAt key: DefinitionKey,
        _ container: DependencyContainer, _ graph: ResolutionGraph
    ) throws {
        // A class with a known layout: its boxes are read at their offsets (InjectionLayout), one at a time.
        if type is AnyClass, case .fields(let fields) = InjectionLayout.of(type) {
            guard !fields.isEmpty else { return }
            let tag = tagPassedDown(from: key, in: container)
            let object = InjectionLayout.instanceObject(value)
            return try withExtendedLifetime(object) {
                try inject(
                    fields, at: InjectionLayout.address(of: object), keptContexts: tag == nil && holder == type,
                    in: holder, tag: tag, container, graph)
            }
        }
        let boxes = boxes(in: value)
        guard !boxes.isEmpty else { return }
        let tag = tagPassedDown(from: key, in: container)
        for (label, box) in boxes {
            let type = Swift.type(of: box).wrappedType
            try inject(box, label: label, of: type, in: holder, tag: tag, container, graph)
        }
    }

    /// Fills the auto-injected properties of the new instance at `result` (of the type `ops` describes), resolved
    /// under `key`, from `container`, the owner of its definition: `inject(into:resolvedAt:container:graph:)`,
    /// without boxing an instance of a class type in `Any`.
    static func inject(
        into result: UnsafeMutableRawPointer, ops: TypeOps, resolvedAt key: UnsafePointer<DefinitionKey>,
        container: DependencyContainer, graph: ResolutionGraph
    ) throws {
        guard ops.isClassReference else {
            return try inject(into: ops.box(result), resolvedAt: key.pointee, container: container, graph: graph)
        }
        // The caller's storage holds the instance until injection ends.
        let object = result.load(as: UnsafeRawPointer.self)
        let holder = Unmanaged<AnyObject>.fromOpaque(object)._withUnsafeGuaranteedRef { Swift.type(of: $0) as Any.Type }
        guard case .fields(let fields) = graph.injectionLayout(of: holder) else {
            return try inject(into: ops.box(result), resolvedAt: key.pointee, container: container, graph: graph)
        }
        guard !fields.isEmpty else { return }
        // Most keys are untagged: nothing to pass down, and no key copied to find it out.
        guard case .none = key.pointee.storedTag else {
            let tag = tagPassedDown(from: key.pointee, in: container)
            return try inject(fields, at: object, keptContexts: tag == nil, in: holder, tag: tag, container, graph)
        }
        try inject(fields, at: object, keptContexts: true, in: holder, tag: nil, container, graph)
    }

    /// Fills the boxes of `fields` in the instance at `object` (an instance of the class the fields were learned
    /// for, alive until this returns), held by an instance of `holder` (itself, or the optional that wraps it),
    /// passing `tag` down to those that inherit it. With `keptContexts` (untagged, and `holder` the fields' class),
    /// each property's context is the one its field keeps.
    private static func inject(
        _ fields: [InjectionLayout.Field], at object: UnsafeRawPointer, keptContexts: Bool, in holder: Any.Type,
        tag: DependencyContainer.Tag?, _ container: DependencyContainer, _ graph: ResolutionGraph
    ) throws {
        try fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                let field = fields.baseAddress.unsafelyUnwrapped + index
                try inject(
                    field, at: object + field.pointee.offset, keptContexts: keptContexts, in: holder, tag: tag,
                    container, graph)
            }
        }
    }

    /// Fills the box of `field` at `address`, in its property's context.
    private static func inject(
        _ field: UnsafePointer<InjectionLayout.Field>, at address: UnsafeRawPointer, keptContexts: Bool,
        in holder: Any.Type, tag: DependencyContainer.Tag?, _ container: DependencyContainer, _ graph: ResolutionGraph
    ) throws {
        do {
            if keptContexts {
                try graph.run(property: InjectionLayout.Field.untaggedContext(of: field)) {
                    try fill(field, at: address, from: container, tag: tag)
                }
            } else {
                try graph.injecting(field.pointee.label, of: field.pointee.wrappedType, in: holder, tag: tag) {
                    try fill(field, at: address, from: container, tag: tag)
                }
            }
        } catch {
            throw ResolutionError.wrapping(error) {
                .autoInjectionFailed(label: field.pointee.label, type: field.pointee.wrappedType, underlyingError: $0)
            }
        }
    }

    /// Fills the box at `address`, of `field`, from `container`, with the frame of its property on the graph.
    private static func fill(
        _ field: UnsafePointer<InjectionLayout.Field>, at address: UnsafeRawPointer,
        from container: DependencyContainer, tag: DependencyContainer.Tag?
    ) throws {
        // Plexus's own boxes take the tag passed down from here; another box reads it from the property's context,
        // which says the same.
        if let direct = field.pointee.direct {
            try direct.inject(
                boxAt: address, holdingObject: field.pointee.holdsObject, from: container, passedDown: tag)
        } else {
            try InjectionLayout.box(of: field.pointee, at: address).resolve(container)
        }
    }

    /// Resolves the property `label` (a `box` of `type`) of an instance of `holder` in its own context.
    private static func inject(
        _ box: AutoInjectedPropertyBox, label: String?, of type: Any.Type, in holder: Any.Type,
        tag: DependencyContainer.Tag?, _ container: DependencyContainer, _ graph: ResolutionGraph
    ) throws {
        do {
            try graph.injecting(label, of: type, in: holder, tag: tag) { try box.resolve(container) }
        } catch {
            throw ResolutionError.wrapping(error) {
                .autoInjectionFailed(label: label, type: type, underlyingError: $0)
            }
        }
    }
}
