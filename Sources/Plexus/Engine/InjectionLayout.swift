internal import PlexusCore

// `_forEachField` is the standard library's reflection of a type's stored fields (name, offset, type), without an
// instance: what `Mirror` reads per instance, read here once per type.
@_spi(Reflection) import Swift

/// Where the auto-injected properties of a class sit in its instances, learned once per type, so that filling
/// them does not reflect every instance with `Mirror` (which demangles field types and boxes every child).
///
/// A layout lists the fields whose declared type is an ``AutoInjectedPropertyBox`` (the `_name` storage of
/// `@Injected var name`), superclass fields first, as `Mirror` does. A type whose boxes `Mirror` might find where the
/// layout cannot — a field declared `Any`, as an existential or as an optional (`Mirror` looks inside them), boxes
/// behind a custom mirror, a class the standard library cannot reflect, or an OS without `_forEachField` — keeps
/// `Mirror`.
enum InjectionLayout {
    struct Field {
        let label: String
        let offset: Int
        let boxType: any AutoInjectedPropertyBox.Type
        /// `boxType` when it is one of Plexus's own boxes, filled without its public `resolve(_:)`
        /// (`DirectlyInjectedBox`).
        let direct: (any DirectlyInjectedBox.Type)?
        /// `boxType.wrappedType`, asked once.
        let wrappedType: Any.Type
        /// Whether `wrappedType` is a class, whose instances are one reference.
        let holdsObject: Bool
        /// The context of the property's injection in an instance of the class this layout was learned for, resolved
        /// without a tag: the frame of such an injection points here rather than at a context made per instance.
        let untaggedContext: DependencyContainer.Context

        init(
            label: String, offset: Int, boxType: any AutoInjectedPropertyBox.Type,
            direct: (any DirectlyInjectedBox.Type)?, holder: Any.Type
        ) {
            (self.label, self.offset, self.boxType, self.direct) = (label, offset, boxType, direct)
            wrappedType = boxType.wrappedType
            holdsObject = wrappedType is AnyClass
            untaggedContext = DependencyContainer.Context(
                key: DefinitionKey(type: wrappedType, typeOfArguments: Void.self, tag: nil), injectedInType: holder,
                injectedInProperty: label)
        }

        /// The address of `untaggedContext` in the field at `field`.
        static func untaggedContext(of field: UnsafePointer<Field>) -> Pinned<DependencyContainer.Context> {
            .at((UnsafeRawPointer(field) + contextOffset).assumingMemoryBound(to: DependencyContainer.Context.self))
        }

        private static let contextOffset = MemoryLayout<Field>.offset(of: \Field.untaggedContext).unsafelyUnwrapped
    }

    /// Read the boxes at these offsets.
    case fields([Field])
    /// Reflect every instance with `Mirror`.
    case mirror

    /// Read without the lock while no layout is being added, as every instance injected reads it.
    private static let known = Protected(IdentityTable<InjectionLayout>(), readerBiased: true)

    /// The layout of `type`, learned on first use.
    static func of(_ type: Any.Type) -> InjectionLayout {
        let id = ObjectIdentifier(type)
        if let layout = known.withBiasedRead({ $0.pointee[id] }) ?? nil { return layout }
        if let layout = known.withLockKeepingReaders({ $0.pointee[id] }) { return layout }
        let layout = learn(type)
        known.withLock { $0[id] = layout }
        return layout
    }

    private static func learn(_ type: Any.Type) -> InjectionLayout {
        guard type is AnyClass else { return .mirror }
        guard #available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *) else { return .mirror }
        // `_EachFieldOptions.classType` is a `static var`, which strict concurrency rejects: its value, 1 << 0. Were it
        // ever different, `_forEachField` would answer `false` and the type would keep `Mirror`.
        let classType = _EachFieldOptions(rawValue: 1 << 0)
        var fields: [Field] = []
        var readable = true
        let reflected = _forEachField(of: type, options: classType) { name, offset, fieldType, kind in
            // One conformance check per field type, which the runtime caches (the same check `TypeInfo` makes of a
            // class), and the box protocol's only for a type that passes it.
            if fieldType is any CompletedAfterResolution.Type,
                let boxType = fieldType as? any AutoInjectedPropertyBox.Type
            {
                let label = String(cString: name)
                fields.append(
                    Field(
                        label: label.hasPrefix("_") ? String(label.dropFirst()) : label, offset: offset,
                        boxType: boxType, direct: Self.direct(boxType), holder: type))
            } else if kind == .existential || kind == .optional || kind == .existentialMetatype {
                readable = false
            }
            return readable
        }
        guard reflected && readable else { return .mirror }
        // A custom mirror decides what `Mirror` sees, so a class with one keeps `Mirror`. Asked only of a class whose
        // fields hold boxes: the question is a conformance check, and a mirror that shows boxes its fields do not
        // hold is not a case auto-injection serves.
        if !fields.isEmpty, type is CustomReflectable.Type { return .mirror }
        return .fields(fields)
    }

    /// `boxType` as one of Plexus's own boxes, if it is one: `Injected` or `InjectedWeak` of its `wrappedType`,
    /// compared by identity, so that no other conformance check is made (each costs an app's launch a walk of the
    /// conformance records the first time a type is checked).
    private static func direct(_ boxType: any AutoInjectedPropertyBox.Type) -> (any DirectlyInjectedBox.Type)? {
        func open<Value>(_: Value.Type) -> (any DirectlyInjectedBox.Type)? {
            if boxType == Injected<Value>.self { return Injected<Value>.self }
            if boxType == InjectedWeak<Value>.self { return InjectedWeak<Value>.self }
            return nil
        }
        return open(boxType.wrappedType)
    }

    /// The address of `object`'s storage, where its fields lie at their offsets; valid while `object` lives.
    static func address(of object: AnyObject) -> UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    }

    /// The box at `address`, as the field of `field` holds it.
    static func box(of field: Field, at address: UnsafeRawPointer) -> AutoInjectedPropertyBox {
        load(field.boxType, at: address)
    }

    /// The class instance `instance` holds (see `object(in:)`).
    static func instanceObject(_ instance: Any) -> AnyObject {
        object(in: instance)
    }

    /// The boxes of `instance`, an instance of the class this layout was learned for.
    ///
    /// `instance` may hold the object directly or behind any number of existential boxes (a class registered as a
    /// non-class protocol, a composition or `Any` arrives as an `Any` holding that existential, whose first word is
    /// not the object), so the reference is taken with a cast, never read from the `Any`'s layout.
    func boxes(in instance: Any) -> [(label: String?, box: AutoInjectedPropertyBox)] {
        guard case .fields(let fields) = self, !fields.isEmpty else { return [] }
        let object = Self.object(in: instance)
        return withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            return fields.map { field in (field.label, Self.load(field.boxType, at: base + field.offset)) }
        }
    }

    /// The class instance `instance` holds. Held directly, its static type is a class and the reference is the value
    /// itself; behind an existential, the cast takes it out (`as AnyObject` bridges, several times dearer than a
    /// metatype check, so only a value that is not itself a class reference pays it).
    private static func object(in instance: Any) -> AnyObject {
        func open<Value>(_ value: Value) -> AnyObject {
            Value.self is AnyClass ? unsafeBitCast(value, to: AnyObject.self) : value as AnyObject
        }
        return open(instance)
    }

    private static func load<Box: AutoInjectedPropertyBox>(_: Box.Type, at pointer: UnsafeRawPointer)
        -> AutoInjectedPropertyBox
    {
        pointer.assumingMemoryBound(to: Box.self).pointee
    }
}
