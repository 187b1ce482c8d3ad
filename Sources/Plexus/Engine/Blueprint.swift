internal import PlexusCore

/// How to handle values of one type without knowing it statically: built once, at registration, by generic code
/// that the compiler specializes at the call site, so the resolve path itself is not generic and instantiates no
/// generic metadata.
///
/// A class type's values are one reference each, handled here without a closure (a retain, a release, an `Any` made
/// from the reference and the type): such a type keeps no closures, only its type. Any other type keeps its
/// operations, size and alignment in `ValueOperations`, specialized for it.
///
/// The operations are out of line (`@inline(never)`), one call each as a closure was: inlined, their two branches
/// grow every resolve function that names one on a failure path (`construct`'s destroy after a failed scope close), and
/// the optimizer then stops inlining the fast path's `constructInCurrentGraph` closure and copies the key on the general
/// path (`Benchmarks/guard`: unique 918 instructions against 881, a weak singleton hit and a unique resolve 5,009
/// against 4,699). Only `dynamicType(of:)`, which the fast path calls after every factory, is inlined.
@usableFromInline
final class TypeOps: Sendable {
    /// The type these operations handle.
    @usableFromInline let type: Any.Type
    /// The operations of a type whose values are not one class reference, with its size and alignment; `nil` for a
    /// class type, whose values are one reference.
    private let valueOperations: ValueOperations?
    /// Whether a value is one reference to a class instance: then copying it is a retain of that reference, with no
    /// call through a closure.
    var isClassReference: Bool { valueOperations == nil }

    var size: Int { valueOperations?.size ?? MemoryLayout<AnyObject>.size }
    var alignment: Int { valueOperations?.alignment ?? MemoryLayout<AnyObject>.alignment }

    /// The operations of a value type, or of any other type whose values are not one class reference.
    private final class ValueOperations: Sendable {
        let size: Int
        let alignment: Int
        let copy: @Sendable (_ source: InstanceStorage, _ destination: InstanceStorage) -> Void
        let destroy: @Sendable (InstanceStorage) -> Void
        let box: @Sendable (InstanceStorage) -> Any
        let unbox: @Sendable (_ value: Any, _ destination: InstanceStorage) -> Bool
        let dynamicType: @Sendable (InstanceStorage) -> ObjectIdentifier
        let wrapInOptional: @Sendable (InstanceStorage) -> Void

        init<T>(_: T.Type) {
            size = MemoryLayout<T>.size
            alignment = MemoryLayout<T>.alignment
            copy = { source, destination in source.readingInstance(of: T.self) { destination.initialize(to: $0) } }
            destroy = { storage in storage.destroy(as: T.self) }
            box = { storage in storage.readingInstance(of: T.self) { $0 } }
            unbox = { value, destination in
                guard let value = cast(value, to: T.self) else { return false }
                destination.initialize(to: value)
                return true
            }
            dynamicType = { storage in
                storage.readingInstance(of: T.self) { ObjectIdentifier(Swift.type(of: $0 as Any)) }
            }
            wrapInOptional = { storage in storage.wrapInOptional(T.self) }
        }
    }

    @inlinable
    convenience init<T>(_: T.Type) {
        let isClassReference = T.self is AnyClass && MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
        self.init(type: T.self, valueOperations: isClassReference ? nil : Self.valueOperations(T.self))
    }

    /// The operations of `T`'s values, for a type whose values are not one class reference.
    @usableFromInline
    static func valueOperations<T>(_: T.Type) -> AnyObject {
        ValueOperations(T.self)
    }

    @usableFromInline
    init(type: Any.Type, valueOperations: AnyObject?) {
        self.type = type
        self.valueOperations = valueOperations.map { unsafeDowncast($0, to: ValueOperations.self) }
    }

    /// Initializes `destination` with a copy of the value `source` holds.
    @inline(never)
    func copy(_ source: InstanceStorage, _ destination: InstanceStorage) {
        guard let valueOperations else {
            let reference = source.reference
            _ = Unmanaged<AnyObject>.fromOpaque(reference).retain()
            destination.initialize(reference: reference)
            return
        }
        valueOperations.copy(source, destination)
    }

    /// Destroys the value `storage` holds.
    @inline(never)
    func destroy(_ storage: InstanceStorage) {
        guard let valueOperations else {
            Unmanaged<AnyObject>.fromOpaque(storage.moveReference()).release()
            return
        }
        valueOperations.destroy(storage)
    }

    /// The value at `pointer`, as `Any`: for a reference, the `Any` that `pointee as Any` makes of a `type`, written
    /// in place (the existential container's layout, as `cast(_:to:)` reads it: the reference as the first word of the
    /// inline value, then the type it is stored as), so that `cast` finds it stored as its class.
    @inline(never)
    func box(_ storage: InstanceStorage) -> Any {
        guard let valueOperations else {
            let container = ReferenceInAny(reference: storage.reference, type: type)
            // A bit cast copies the value as the `Any` it becomes: its type's copy retains the reference.
            return unsafeBitCast(container, to: Any.self)
        }
        return valueOperations.box(storage)
    }

    /// Initializes `destination` from `value` if it is a value of `type`.
    @inline(never)
    func unbox(_ value: Any, _ destination: InstanceStorage) -> Bool {
        guard let valueOperations else { return Self.unbox(value, as: type, into: destination) }
        return valueOperations.unbox(value, destination)
    }

    /// The dynamic type of the value `storage` holds.
    @inline(never)
    func dynamicType(_ storage: InstanceStorage) -> ObjectIdentifier {
        dynamicType(of: storage)
    }

    /// Turns the value `storage` holds into an `Optional` of it in the same storage (made for that `Optional`). An
    /// optional reference is the same word, `nil` being null, so a reference stays as it is.
    @inline(never)
    func wrapInOptional(_ storage: InstanceStorage) {
        valueOperations?.wrapInOptional(storage)
    }

    /// `unbox` for a class type: the reference in `value` when it is stored as `type` (`cast(_:to:)`'s fast
    /// path) or as a subclass of it; else the runtime's cast to `type`, opened from the metatype (a class behind a
    /// protocol existential, an `Optional`), which costs several hundred instructions more.
    private static func unbox(_ value: Any, as type: Any.Type, into destination: InstanceStorage) -> Bool {
        let reference = withUnsafePointer(to: value) { container -> UnsafeRawPointer? in
            let stored = UnsafeRawPointer(container).load(as: ReferenceInAny.self)
            if stored.type == type { return stored.reference }
            // A value stored as a class is one reference, the first word.
            guard let storedClass = stored.type as? AnyClass, isSubclass(storedClass, of: type) else { return nil }
            return stored.reference
        }
        if let reference {
            _ = Unmanaged<AnyObject>.fromOpaque(reference).retain()
            destination.initialize(reference: reference)
            return true
        }
        func unbox<U>(_: U.Type) -> Bool {
            guard let typed = value as? U else { return false }
            destination.initialize(to: typed)
            return true
        }
        // The metatype is opened implicitly: `U` is the type `type` names.
        return unbox(type)
    }

    /// The operations of `T`, made once per type and shared by every definition of it: a definition keeps no block of
    /// its own for them.
    @inlinable
    static func of<T>(_: T.Type) -> TypeOps {
        shared(for: T.self) { TypeOps(T.self) }
    }

    /// The operations kept for `type`, made by `make` the first time.
    @usableFromInline
    static func shared(for type: Any.Type, _ make: () -> TypeOps) -> TypeOps {
        let id = ObjectIdentifier(type)
        // A type is learned once per process and looked up at every registration of it: read under the reader bias
        // (no lock), else under the lock without turning the bias off.
        let found = known.withBiasedRead { $0.pointee[id] } ?? known.withLockKeepingReaders { $0.pointee[id] }
        if let found { return found }
        let made = make()
        return known.withLock { known in
            if let earlier = known[id] { return earlier }
            known[id] = made
            return made
        }
    }

    private static let known = Protected(IdentityTable<TypeOps>(), readerBiased: true)

    /// The dynamic type of the value `storage` holds, read in place for a class instance: no call through a closure
    /// and no reference counting of the instance.
    @inline(__always)
    func dynamicType(of storage: InstanceStorage) -> ObjectIdentifier {
        guard let valueOperations else {
            return Unmanaged<AnyObject>.fromOpaque(storage.reference)._withUnsafeGuaranteedRef {
                ObjectIdentifier(Swift.type(of: $0))
            }
        }
        return valueOperations.dynamicType(storage)
    }
}

/// Whether `subclass` is the class `type` or a subclass of it.
private func isSubclass(_ subclass: AnyClass, of type: Any.Type) -> Bool {
    var checked: AnyClass? = subclass
    while let current = checked {
        if ObjectIdentifier(current) == ObjectIdentifier(type) { return true }
        checked = _getSuperclass(current)
    }
    return false
}

/// An `Any` that holds one class reference, as the existential container lays it out: three words of inline value,
/// the reference the first, then the type the value is stored as.
private struct ReferenceInAny {
    var reference: UnsafeRawPointer
    var unused: (Int, Int) = (0, 0)
    var type: Any.Type
}

/// `instance as? T`, without the runtime's dynamic cast when `instance` holds a reference stored as the class `T`:
/// the hooks and the `.shared` instances of a graph are handed around as `Any`, and the runtime's cast of each back
/// is costly (`Benchmarks/profile graph/plexus`). An `Any` is an existential container (the stable layout of every Swift platform): three words of
/// inline value, where a class reference is the first, then the type the value was stored as. Anything else (a
/// value, a protocol type, a reference stored as another class) is cast.
@inlinable
func cast<T>(_ instance: Any, to _: T.Type) -> T? {
    if T.self is AnyClass {
        let wanted = unsafeBitCast(T.self as Any.Type, to: UnsafeRawPointer.self)
        let object = withUnsafePointer(to: instance) { container -> T? in
            let raw = UnsafeRawPointer(container)
            let stored = raw.load(fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
            return stored == wanted ? raw.load(as: T.self) : nil
        }
        if let object { return object }
    }
    return instance as? T
}

/// A blueprint's factory: makes an instance from the arguments at the first pointer into the second. It is handed its
/// blueprint, so that what it calls can live in the blueprint (`DeclaredBlueprint`) instead of a closure context.
@usableFromInline
typealias BlueprintFactory = @Sendable (Blueprint, UnsafeRawPointer, UnsafeMutableRawPointer) throws -> Void

/// A definition with its types erased: its scope and factory, which a container keeps and runs.
///
/// Every ``Definition`` is one; Plexus also makes them itself, for what typed accessors declare and override. It
/// has no public initializer, and nothing but its scope to read.
///
/// An implementation detail, public only because a public class's superclass must be: a ``Definition`` is its own
/// blueprint, so that a registration keeps one object for both (`Benchmarks/heap`). Nothing outside Plexus can make
/// one, subclass it or read anything of it but `scope`, a definition's scope.
///
/// Not final for ``Definition`` and `DeclaredBlueprint`, which keep what only they need; every member here is final
/// or a `let`. Sendable because every stored property is a `let` of a sendable type, and in the subclasses too
/// (`Definition`'s mutable state is reached only under its lock).
public class Blueprint: @unchecked Sendable {
    /// Runs `factory`. Out of line, so that the blueprint arrives borrowed: called as `slot.blueprint.factory(…)`
    /// inside a larger function, the closure's context is retained and released around every call.
    @inline(never)
    final func make(_ arguments: ResolveArguments, into result: InstanceStorage) throws {
        try factory(self, arguments.addressForFactory, result.addressToInitialize(as: type))
        result.didInitialize()
    }

    /// Calls `body` with a pointer to the runtime arguments.
    @usableFromInline typealias ArgumentsBody = (UnsafeRawPointer) throws -> Void

    /// What the blueprint is made of, in one stored property: each stored property of this class would be a word in
    /// the type metadata of every ``Definition`` specialization (its field offsets), which a distinct type pays for.
    let parts: Parts

    /// How long instances live.
    public final var scope: ComponentScope { parts.scope }
    /// Where the factory can run: anywhere, only with `await`, or on the main actor.
    final var isolation: FactoryIsolation { parts.isolation }
    /// Whether the factory applies its key's decorators itself, once to each instance it makes rather than to
    /// every instance it returns (a ``ParameterFactory`` that keeps one instance per argument value): the engine
    /// then never decorates what it returns.
    final var decoratesItself: Bool { parts.decoratesItself }
    /// Whether Plexus made this blueprint itself (a typed accessor's declared default or override), rather than a
    /// ``Definition`` a user registered.
    final var isMadeByPlexus: Bool { parts.isMadeByPlexus }
    /// The type of the instances, the one the definition was registered for.
    final var type: Any.Type { parts.ops.type }
    final var argumentCount: Int { Int(parts.argumentCount) }
    final var ops: TypeOps { parts.ops }
    /// Makes an instance from the arguments at the first pointer, initializing the second.
    final var factory: BlueprintFactory { parts.factory }
    /// What only factories with arguments or async factories have: one optional reference, so that a plain
    /// definition's blueprint keeps no room for them.
    fileprivate final var rare: Rare? { parts.rare }

    /// The same value in every blueprint made from one `Parts`.
    fileprivate final class Rare: Sendable {
        let withArguments: (@Sendable (Any, ArgumentsBody) throws -> Bool)?
        let autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?, ArgumentsBody) throws -> Void)?
        let argumentLayout: ArgumentLayout?
        let asyncFactory: AwaitableFactory?

        init(
            withArguments: (@Sendable (Any, ArgumentsBody) throws -> Bool)?,
            autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?, ArgumentsBody) throws -> Void)?,
            argumentLayout: ArgumentLayout?, asyncFactory: AwaitableFactory?
        ) {
            self.withArguments = withArguments
            self.autoWire = autoWire
            self.argumentLayout = argumentLayout
            self.asyncFactory = asyncFactory
        }
    }

    /// Calls the body with the arguments in `Any` if they have the factory's argument types; false if not. A factory
    /// without arguments accepts only `()`, and keeps no closure for it.
    final var withArguments: @Sendable (Any, ArgumentsBody) throws -> Bool {
        rare?.withArguments ?? Blueprint.acceptingNoArguments
    }
    /// Resolves the arguments from a container (auto-wiring) and calls the body with them; `nil` if the factory
    /// takes none.
    final var autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?, ArgumentsBody) throws -> Void)? {
        rare?.autoWire
    }
    /// The arguments tuple `autoWire` resolves, when it was laid out at registration: what the fast path resolves
    /// the arguments into itself, without `autoWire`'s closures on the stack of nested resolves.
    final var argumentLayout: ArgumentLayout? { rare?.argumentLayout }
    /// The factory of an `async` or `@MainActor` definition, for the async resolve (Concurrency/): the runtime
    /// arguments (as `Any`, a tuple for several) in, the instance out. `nil` for a plain synchronous factory.
    final var asyncFactory: AwaitableFactory? { rare?.asyncFactory }

    /// What a blueprint is made of: made by generic code where the definition is registered, then stored by
    /// whichever blueprint (a ``Definition`` or a bare one) stands for it, with no blueprint made in between.
    @usableFromInline
    struct Parts {
        let scope: ComponentScope
        let isolation: FactoryIsolation
        let decoratesItself: Bool
        fileprivate(set) var isMadeByPlexus = true
        /// Next to the one-byte fields above: they share one word. A factory's arguments are a parameter pack written
        /// in source: far fewer than two billion.
        let argumentCount: Int32
        /// The operations of the instances' type, which is the blueprint's `type`.
        let ops: TypeOps
        let factory: BlueprintFactory
        fileprivate let rare: Rare?

        @usableFromInline
        init(
            scope: ComponentScope,
            argumentCount: Int,
            ops: TypeOps,
            factory: @escaping BlueprintFactory,
            withArguments: (@Sendable (Any, ArgumentsBody) throws -> Bool)?,
            autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?, ArgumentsBody) throws -> Void)?,
            argumentLayout: ArgumentLayout? = nil,
            isolation: FactoryIsolation = .none,
            asyncFactory: AwaitableFactory? = nil,
            decoratesItself: Bool = false
        ) {
            self.scope = scope
            self.isolation = isolation
            self.decoratesItself = decoratesItself
            self.argumentCount = Int32(truncatingIfNeeded: argumentCount)
            self.ops = ops
            self.factory = factory
            rare =
                withArguments == nil && autoWire == nil && asyncFactory == nil
                ? nil
                : Rare(
                    withArguments: withArguments, autoWire: autoWire, argumentLayout: argumentLayout,
                    asyncFactory: asyncFactory)
        }

        /// These parts with another factory, for a blueprint that makes the instances of this one its own way.
        func with(factory: @escaping BlueprintFactory, decoratesItself: Bool) -> Parts {
            Parts(
                scope: scope, argumentCount: Int(argumentCount), ops: ops, factory: factory,
                withArguments: rare?.withArguments, autoWire: rare?.autoWire, argumentLayout: rare?.argumentLayout,
                isolation: isolation, asyncFactory: rare?.asyncFactory, decoratesItself: decoratesItself)
        }

        /// These parts with another isolation and async factory.
        func with(isolation: FactoryIsolation, asyncFactory: AwaitableFactory) -> Parts {
            Parts(
                scope: scope, argumentCount: Int(argumentCount), ops: ops, factory: factory,
                withArguments: rare?.withArguments, autoWire: rare?.autoWire, argumentLayout: rare?.argumentLayout,
                isolation: isolation, asyncFactory: asyncFactory, decoratesItself: decoratesItself)
        }
    }

    /// A blueprint of `parts`; `isMadeByPlexus` unless it is a user's ``Definition``.
    @usableFromInline
    init(_ parts: Parts, isMadeByPlexus: Bool = true) {
        var parts = parts
        parts.isMadeByPlexus = isMadeByPlexus
        self.parts = parts
    }

    /// The arguments `A…` laid out once, here (`ArgumentLayout`); `nil` if the layout does not match the tuple's.
    /// Out of line (still specialized where the definition is registered), so that `make` stays small enough for the
    /// optimizer to inline it, and the factory closure with it, where the definition is registered.
    @inlinable
    @inline(never)
    static func argumentLayout<each A>(_: (repeat each A).Type) -> ArgumentLayout? {
        var layout = ArgumentLayout()
        repeat layout.append((each A).self)
        guard layout.size == MemoryLayout<(repeat each A)>.size,
            layout.alignment == MemoryLayout<(repeat each A)>.alignment
        else { return nil }
        return layout
    }

    /// The auto-wiring of a factory taking the arguments `A…`, through `layout` when they were laid out.
    @inlinable
    @inline(never)
    static func autoWiring<each A>(
        _: (repeat each A).Type, layout: ArgumentLayout?
    ) -> @Sendable (DependencyContainer, DependencyContainer.Tag?, ArgumentsBody) throws -> Void {
        if let layout { return layout.autoWire }
        // Not expected (a tuple's elements are laid out in order); resolving the pack is slower but exact.
        return { container, tag, body in
            let arguments = (repeat try container.resolveArgument((each A).self, tag: tag))
            try withArgumentsPointer(to: arguments, body)
        }
    }

    /// The `withArguments` of a factory taking the arguments `A…`.
    @inlinable
    static func accepting<each A>(_: (repeat each A).Type) -> @Sendable (Any, ArgumentsBody) throws -> Bool {
        { value, body in
            guard let arguments = value as? (repeat each A) else { return false }
            try withArgumentsPointer(to: arguments, body)
            return true
        }
    }

    /// Erases a factory taking any number of arguments.
    @inlinable
    static func make<T, each A>(
        scope: ComponentScope,
        type: T.Type,
        factory: @escaping @Sendable (repeat each A) throws -> T
    ) -> Blueprint {
        Blueprint(parts(scope: scope, type: T.self, factory: factory))
    }

    /// The parts of `make(scope:type:factory:)`'s blueprint, for a ``Definition`` to be made of.
    @inlinable
    static func parts<T, each A>(
        scope: ComponentScope,
        type: T.Type,
        factory: @escaping @Sendable (repeat each A) throws -> T
    ) -> Parts {
        var argumentCount = 0
        for _ in repeat (each A).self { argumentCount += 1 }
        let layout = argumentCount > 0 ? argumentLayout((repeat each A).self) : nil
        let autoWire = argumentCount > 0 ? autoWiring((repeat each A).self, layout: layout) : nil
        // Without arguments, the shared `acceptingNoArguments` (`withArguments`) does what this closure would.
        let withArguments = argumentCount > 0 ? accepting((repeat each A).self) : nil
        return Parts(
            scope: scope,
            argumentCount: argumentCount,
            ops: TypeOps.of(T.self),
            factory: { _, arguments, result in
                let arguments = arguments.assumingMemoryBound(to: (repeat each A).self).pointee
                result.assumingMemoryBound(to: T.self).initialize(to: try factory(repeat each arguments))
            },
            withArguments: withArguments,
            autoWire: autoWire,
            argumentLayout: layout)
    }
}

extension Blueprint {
    /// `make(scope:type:factory:)` for a factory without arguments, for the library's own generic code (typed
    /// accessors' overrides): unspecialized, the parameter-pack form looked up the metadata of the empty argument tuple
    /// on every call of the factory.
    @usableFromInline
    static func makeNullary<T>(
        scope: ComponentScope, type: T.Type, factory: @escaping @Sendable () throws -> T
    ) -> Blueprint {
        Blueprint(nullaryParts(scope: scope, type: T.self, factory: factory))
    }

    /// The parts of `makeNullary(scope:type:factory:)`'s blueprint, for a ``Definition`` to be made of.
    @usableFromInline
    static func nullaryParts<T>(
        scope: ComponentScope, type: T.Type, factory: @escaping @Sendable () throws -> T
    ) -> Parts {
        Parts(
            scope: scope,
            argumentCount: 0,
            ops: TypeOps.of(T.self),
            factory: { _, _, result in result.assumingMemoryBound(to: T.self).initialize(to: try factory()) },
            withArguments: nil,
            autoWire: nil)
    }

    /// The `withArguments` of a factory without arguments: it accepts only `()`.
    static func acceptingNoArguments(_ value: Any, _ body: ArgumentsBody) throws -> Bool {
        guard value is Void else { return false }
        try body(ResolveArguments.none.addressForFactory)
        return true
    }
}

/// The blueprint of a typed accessor's declared default: it keeps the accessor's factory, `declared`, which its
/// `factory` reads back from it instead of capturing it, so that a declared default keeps one object for its factory,
/// not a blueprint and a closure context. Sendable as `Blueprint` is: its one stored property is a `let` of a
/// `@Sendable` function.
@usableFromInline
final class DeclaredBlueprint<T>: Blueprint, @unchecked Sendable {
    /// The accessor's declared factory.
    @usableFromInline let declared: @Sendable () throws -> T

    /// A declared default of `T` made by `declared`, through `factory` (made for the same `T`).
    @usableFromInline
    init(
        scope: ComponentScope, declared: @escaping @Sendable () throws -> T, factory: DeclaredFactory<T>,
        isolation: FactoryIsolation = .none, asyncFactory: AwaitableFactory? = nil
    ) {
        self.declared = declared
        super.init(
            Parts(
                scope: scope, argumentCount: 0, ops: TypeOps.of(T.self), factory: factory.run,
                withArguments: nil, autoWire: nil, isolation: isolation, asyncFactory: asyncFactory))
    }
}

/// The factory of a `DeclaredBlueprint<T>`: the instance of the factory the blueprint keeps, moved into the result.
///
/// Made where the accessor is called, so that `run` is specialized for `T`: each instance is made without going
/// through `T`'s value witnesses (`Benchmarks/profile accessor-unique/plexus` shows the difference). `run` captures
/// nothing, so making one allocates nothing. It reads the blueprint it is handed as a `DeclaredBlueprint<T>`; its
/// type parameter is what makes every blueprint that stores it one of the same `T`.
@usableFromInline
struct DeclaredFactory<T> {
    @usableFromInline let run: BlueprintFactory

    @inlinable
    init() {
        run = { blueprint, _, result in
            let declared = unsafeDowncast(blueprint, to: DeclaredBlueprint<T>.self).declared
            result.assumingMemoryBound(to: T.self).initialize(to: try declared())
        }
    }
}

/// A cached instance in memory of its own, so that a hit copies it out without a dynamic cast.
final class InstanceBox {
    let storage: InstanceStorage
    let ops: TypeOps

    /// Allocates the storage and lets `initialize` fill it; if `initialize` throws, nothing is left allocated.
    convenience init(ops: TypeOps, initialize: (InstanceStorage) throws -> Void) throws {
        let storage = InstanceBox.allocate(ops)
        do {
            try initialize(storage)
        } catch {
            storage.deallocate()
            throw error
        }
        self.init(ops: ops, initialized: storage)
    }

    /// Storage for an instance of the type `ops` describes, for `init(ops:initialized:)`; the caller deallocates it
    /// if the instance cannot be made.
    static func allocate(_ ops: TypeOps) -> InstanceStorage {
        InstanceStorage.allocate(byteCount: ops.size, alignment: ops.alignment, for: ops.type)
    }

    /// A box owning `storage`, from `allocate(_:)`, which holds an instance of the type `ops` describes.
    init(ops: TypeOps, initialized storage: InstanceStorage) {
        self.storage = storage
        self.ops = ops
        reference = ops.isClassReference ? storage.reference : nil
    }

    /// The object, when the instance is one class reference (kept alive by the instance in `storage`).
    private let reference: UnsafeRawPointer?

    /// Initializes `destination` with a copy of the instance: a retain of the object for a class instance, the
    /// type's copy otherwise.
    @inline(__always)
    func copy(into destination: InstanceStorage) {
        if let reference {
            _ = Unmanaged<AnyObject>.fromOpaque(reference).retain()
            destination.initialize(reference: reference)
        } else {
            ops.copy(storage, destination)
        }
    }

    deinit {
        ops.destroy(storage)
        storage.deallocate()
    }

    /// The instance as `Any`.
    var value: Any { ops.box(storage) }
}

extension DependencyContainer {
    /// Resolves one argument of an auto-wired factory, passing the requested tag down. Inlinable, so that it is
    /// specialized with the factory's argument types where the definition is registered: unspecialized, every
    /// argument looked up generic metadata and boxed the tag in an existential (`Benchmarks/profile auto-wiring/plexus`).
    @inlinable
    func resolveArgument<A>(_: A.Type, tag: Tag?) throws -> A {
        try resolveTyped(tag: tag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
    }
}

/// Calls `body` with a pointer to `arguments` that is never null-like, also for zero-sized arguments.
@inlinable
func withArgumentsPointer<Arguments, R>(
    to arguments: Arguments, _ body: (UnsafeRawPointer) throws -> R
) rethrows -> R {
    if MemoryLayout<Arguments>.size == 0 { return try body(zeroSizedArguments) }
    return try withUnsafePointer(to: arguments) { try body(UnsafeRawPointer($0)) }
}
