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
            return try container.resolveInjected(T.self, tag: tag, required: options.required) { value in
                cell.store(value.pointee)
                didInject?(value.pointee)
            }
        }
        guard let object = try container.resolveInjectedObject(T.self, tag: tag, required: options.required)
        else { return }
        cell.store(retained: object)
        // Called with a reference of its own (the cast's), taken before the call: `didInject` may replace the value
        // the box holds.
        didInject?(unsafeBitCast(object.takeUnretainedValue(), to: T.self))
    }
}

extension InjectedWeak: DirectlyInjectedBox {
    static func inject(
        boxAt field: UnsafeRawPointer, holdingObject: Bool, from container: DependencyContainer,
        passedDown tag: DependencyContainer.Tag?
    ) throws {
        let box = Unmanaged<InjectedWeak>.fromOpaque(field.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
        let tag = box.options.overridesTag ? box.options.tag : tag
        try container.resolveInjected(T.self, tag: tag, required: box.options.required) { value in
            box.value = value.pointee
            box.didInject(value.pointee)
        }
    }
}
