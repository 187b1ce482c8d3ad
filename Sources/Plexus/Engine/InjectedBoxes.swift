internal import PlexusCore

/// Plexus's own boxes, ``Injected`` and ``InjectedWeak``, filled straight from an instance's learned layout
/// (`InjectionLayout`): the box is read at its field's address rather than copied into an existential, and the tag
/// passed down is handed over by the injector rather than read back from the property's context frame (which holds
/// the same tag). A box of any other type is filled through its public ``AutoInjectedPropertyBox/resolve(_:)``.
///
/// A box is read from its field with a reference of its own (retained): code the resolve runs may replace the box the
/// instance holds.
protocol DirectlyInjectedBox: AutoInjectedPropertyBox, AnyObject {
    /// Fills the box of this type that `field` holds (a strong reference), resolving from `container` with `tag`
    /// unless the box names a tag of its own. `holdingObject` says that the box's type resolves a class (`T.self is
    /// AnyClass`), whose instances are one reference.
    static func inject(
        boxAt field: UnsafeRawPointer, holdingObject: Bool, from container: DependencyContainer,
        passedDown tag: DependencyContainer.Tag?
    ) throws
}

extension Injected: DirectlyInjectedBox {
    static func inject(
        boxAt field: UnsafeRawPointer, holdingObject: Bool, from container: DependencyContainer,
        passedDown tag: DependencyContainer.Tag?
    ) throws {
        let box = Unmanaged<Injected>.fromOpaque(field.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
        guard !box.options.overridesTag else {
            return try box.fill(holdingObject: holdingObject, from: container, tag: box.options.tag)
        }
        try box.fill(holdingObject: holdingObject, from: container, tag: tag)
    }

    /// Resolves the box's value from `container` with `tag` and stores it.
    @inline(__always)
    private func fill(holdingObject: Bool, from container: DependencyContainer, tag: DependencyContainer.Tag?) throws {
        // A class instance is one reference: resolved and stored without code generic over `T`, which runs
        // unspecialized here.
        guard holdingObject else {
            return try container.resolveInjected(T.self, tag: tag, required: options.required) { (value: inout T) in
                cell.store(value)
                didInject?(value)
            }
        }
        guard let object = try container.resolveInjectedObject(T.self, tag: tag, required: options.required)
        else { return }
        cell.store(retained: object)
        // Called with a reference of its own (the cast's), taken before the call: `didInject` may replace the value
        // the box holds.
        didInject?(unsafeBitCast(object.object, to: T.self))
    }
}

extension InjectedWeak: DirectlyInjectedBox {
    static func inject(
        boxAt field: UnsafeRawPointer, holdingObject: Bool, from container: DependencyContainer,
        passedDown tag: DependencyContainer.Tag?
    ) throws {
        let box = Unmanaged<InjectedWeak>.fromOpaque(field.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
        let tag = box.options.overridesTag ? box.options.tag : tag
        try container.resolveInjected(T.self, tag: tag, required: box.options.required) { (value: inout T) in
            box.value = value
            box.didInject(value)
        }
    }
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
        into result: InstanceStorage, ops: TypeOps, resolvedAt key: Pinned<DefinitionKey>,
        container: DependencyContainer, graph: ResolutionGraph
    ) throws {
        guard ops.isClassReference else {
            return try inject(into: ops.box(result), resolvedAt: key.value, container: container, graph: graph)
        }
        // The caller's storage holds the instance until injection ends.
        let object = result.reference
        let holder = Unmanaged<AnyObject>.fromOpaque(object)._withUnsafeGuaranteedRef { Swift.type(of: $0) as Any.Type }
        guard case .fields(let fields) = graph.injectionLayout(of: holder) else {
            return try inject(into: ops.box(result), resolvedAt: key.value, container: container, graph: graph)
        }
        guard !fields.isEmpty else { return }
        // Most keys are untagged: nothing to pass down, and no key copied to find it out.
        guard case .none = key.value.storedTag else {
            let tag = tagPassedDown(from: key.value, in: container)
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
