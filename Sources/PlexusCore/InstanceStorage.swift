/// Uninitialized memory a resolve writes its one instance into, so that the engine delivers an instance without code
/// generic over its type and without making an `Any` of it: the caller, which knows the type, allocates it, and moves
/// the instance out once the engine says it wrote one.
///
/// Its contract: it is written at most once, with a value of the type it was made for (or, for storage made for an
/// `Optional`, with the wrapped type, which the engine then wraps in place, `wrapInOptional`), and read only after it was
/// written. When the package is built with `PLEXUS_CHECK_INVARIANTS` each operation checks it and stops the process,
/// naming the broken rule; otherwise the storage is its address, one word, and no operation checks anything.
///
/// Made by the core: `filled(_:_:)`, `filledIfWritten(_:_:)`, `filledReference` and `withFilled` (temporary storage for
/// a `T`, its instance moved out or used in place in the core), `withInitialized` (a value of the caller's, written
/// already), `withTemporary` (type-erased temporary storage), `allocate` (storage that outlives the call: a cached
/// instance's box) and `ArgumentTuple.element(at:for:)` (an argument's place). Where code inlined into an application
/// hands the engine its own storage (a declaration of the core cannot be named there), the entry it calls makes it with
/// `init(uninitialized:for:)` or `init(initialized:for:)`.
@usableFromInline
package struct InstanceStorage {
    /// The first byte of the instance.
    @usableFromInline let address: UnsafeMutableRawPointer

    #if PLEXUS_CHECK_INVARIANTS
        /// What the checked build knows of the storage, shared by every copy of it.
        @usableFromInline let contract: InstanceStorageContract
    #endif

    /// Storage at `address`, uninitialized, for an instance of `type` (`nil` where the entry that makes it does not
    /// know the type: a checked build then checks every rule but the type). `address` must stay valid, and hold
    /// nothing else, while the storage is used.
    @inlinable
    package init(uninitialized address: UnsafeMutableRawPointer, for type: Any.Type?) {
        self.address = address
        #if PLEXUS_CHECK_INVARIANTS
            contract = InstanceStorageContract(type: type, written: false)
        #endif
    }

    /// Storage at `address`, which already holds an instance of `type` (`nil` where the entry does not know the
    /// type): what an earlier call wrote into storage that code inlined into an application handed the engine.
    @inlinable
    package init(initialized address: UnsafeMutableRawPointer, for type: Any.Type?) {
        self.address = address
        #if PLEXUS_CHECK_INVARIANTS
            contract = InstanceStorageContract(type: type, written: true)
        #endif
    }

    // MARK: Made by the core

    /// The `T` that `fill` wrote into temporary storage made for it, moved out; `nil` when `fill` returns `false`
    /// having written nothing. The storage lives on the stack for the call only.
    @inlinable
    @inline(__always)
    package static func filledIfWritten<T>(_: T.Type, _ fill: (InstanceStorage) throws -> Bool) rethrows -> T? {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = InstanceStorage(uninitialized: address(of: buffer), for: T.self)
            guard try fill(storage) else {
                storage.checkUnwritten("written, though its fill reported nothing written")
                return nil
            }
            return storage.move(as: T.self)
        }
    }

    /// Calls `use` with the `T` that `fill` wrote into temporary storage made for it, destroyed in place once `use`
    /// returns: nothing generic over `T` is moved or wrapped, for callers that run unspecialized.
    @inlinable
    @inline(__always)
    package static func withFilled<T>(
        _: T.Type, _ fill: (InstanceStorage) throws -> Void, _ use: (inout T) -> Void
    ) rethrows {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = InstanceStorage(uninitialized: address(of: buffer), for: T.self)
            try fill(storage)
            defer { storage.destroy(as: T.self) }
            storage.withInstance(of: T.self, use)
        }
    }

    /// The object reference that `fill` wrote into temporary storage made for `type`, a class type, moved out: the
    /// caller owns it.
    @inlinable
    @inline(__always)
    package static func filledReference(
        for type: Any.Type, _ fill: (InstanceStorage) throws -> Void
    ) rethrows -> UnsafeRawPointer {
        try withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: 1) { buffer in
            let storage = InstanceStorage(uninitialized: address(of: buffer), for: type)
            try fill(storage)
            return storage.moveReference()
        }
    }

    /// Calls `body` with temporary storage of `byteCount` bytes aligned to `alignment`, uninitialized, for an instance
    /// of `type`; `body` leaves it uninitialized again (destroys or moves out what it wrote) before it returns.
    @inlinable
    package static func withTemporary<R>(
        byteCount: Int, alignment: Int, for type: Any.Type, _ body: (InstanceStorage) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: Swift.max(byteCount, 1), alignment: alignment) { buffer in
            let address = buffer.baseAddress ?? UnsafeMutableRawPointer(mutating: zeroSizedArgumentsAddress)
            let storage = InstanceStorage(uninitialized: address, for: type)
            defer { storage.checkUnwritten("a temporary instance was left undestroyed") }
            return try body(storage)
        }
    }

    /// Calls `body` with storage that holds `value`, for `body` to read or rewrite in place.
    @inlinable
    package static func withInitialized<T>(_ value: inout T, _ body: (InstanceStorage) -> Void) {
        withUnsafeMutablePointer(to: &value) { body(InstanceStorage(initialized: $0, for: T.self)) }
    }

    /// The `T` that `fill` wrote into temporary storage made for it, moved out.
    @inlinable
    @inline(__always)
    package static func filled<T>(_: T.Type, _ fill: (InstanceStorage) throws -> Void) rethrows -> T {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = InstanceStorage(uninitialized: address(of: buffer), for: T.self)
            try fill(storage)
            return storage.move(as: T.self)
        }
    }

    /// Heap storage of `byteCount` bytes aligned to `alignment`, uninitialized, for an instance of `type`; its owner
    /// calls `deallocate()` once, after destroying what it holds.
    package static func allocate(byteCount: Int, alignment: Int, for type: Any.Type) -> InstanceStorage {
        let address = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(byteCount, 1), alignment: alignment)
        return InstanceStorage(uninitialized: address, for: type)
    }

    /// Frees storage from `allocate`, which holds nothing.
    package func deallocate() {
        checkUnwritten("an instance's storage was freed while it held the instance")
        address.deallocate()
    }

    /// The address of a temporary allocation for one `T`; a zero-sized `T` may get none, and is then "stored" at the
    /// address of no arguments, whose bytes a zero-sized value never reads or writes.
    @inlinable
    @inline(__always)
    static func address<T>(of buffer: UnsafeMutableBufferPointer<T>) -> UnsafeMutableRawPointer {
        guard let base = buffer.baseAddress else { return UnsafeMutableRawPointer(mutating: zeroSizedArgumentsAddress) }
        return UnsafeMutableRawPointer(base)
    }

    /// Moves the instance out, leaving the storage uninitialized.
    @inlinable
    @inline(__always)
    func move<T>(as _: T.Type) -> T {
        checkWritten(as: T.self)
        #if PLEXUS_CHECK_INVARIANTS
            contract.written = false
            contract.writtenType = nil
        #endif
        return address.assumingMemoryBound(to: T.self).move()
    }

    // MARK: Writing

    /// Initializes the storage with `value`, a value of its type.
    @inlinable
    @inline(__always)
    package func initialize<T>(to value: consuming T) {
        checkWrite(of: T.self)
        address.initializeMemory(as: T.self, to: value)
    }

    /// Initializes the storage with `reference`, an object reference the caller retained for it: storage for a class
    /// type, whose values are one reference.
    @inlinable
    @inline(__always)
    package func initialize(reference: UnsafeRawPointer) {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(!contract.written, "written twice")
            contract.written = true
        #endif
        address.storeBytes(of: reference, as: UnsafeRawPointer.self)
    }

    /// The address a type-erased write of a value of `type` (a blueprint's factory, a type's copy) initializes;
    /// `didInitialize()` follows once it did. Two calls rather than one taking the write, so that no frame of the
    /// core stays on the stack while a factory runs.
    @inlinable
    @inline(__always)
    package func addressToInitialize(as type: Any.Type) -> UnsafeMutableRawPointer {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(!contract.written, "written twice")
            contract.check(contract.accepts(type), "written with a value of \(type), not of \(contract.typeName)")
            contract.writtenType = type
        #endif
        return address
    }

    /// Records that the write `addressToInitialize(as:)` announced initialized the storage.
    @inlinable
    @inline(__always)
    package func didInitialize() {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(!contract.written, "written twice")
            contract.written = true
        #endif
    }

    // MARK: Reading

    /// Calls `body` with the instance, a `T`, to replace in place: for storage only its caller's thread reaches (a
    /// decorator's fresh instance).
    @inlinable
    @inline(__always)
    package func withInstance<T, R>(of _: T.Type, _ body: (inout T) throws -> R) rethrows -> R {
        checkWritten(as: T.self)
        return try body(&address.assumingMemoryBound(to: T.self).pointee)
    }

    /// Calls `body` with the instance, a `T`, read in place (no exclusive access: threads that copy one published
    /// instance read it at once).
    @inlinable
    @inline(__always)
    package func readingInstance<T, R>(of _: T.Type, _ body: (T) throws -> R) rethrows -> R {
        checkWritten(as: T.self)
        return try body(address.assumingMemoryBound(to: T.self).pointee)
    }

    /// The object reference the storage holds: storage for a class type, written.
    @inlinable
    @inline(__always)
    package var reference: UnsafeRawPointer {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(contract.written, "read before it was written")
        #endif
        return address.load(as: UnsafeRawPointer.self)
    }

    /// Moves out the object reference the storage holds (storage for a class type, written), leaving it
    /// uninitialized: the caller owns the reference.
    @inlinable
    @inline(__always)
    package func moveReference() -> UnsafeRawPointer {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(contract.written, "read before it was written")
            contract.written = false
            contract.writtenType = nil
        #endif
        return address.load(as: UnsafeRawPointer.self)
    }

    /// Destroys the written instance, a `T`; the storage is then uninitialized, and may be written again.
    @inlinable
    @inline(__always)
    package func destroy<T>(as _: T.Type) {
        checkWritten(as: T.self)
        #if PLEXUS_CHECK_INVARIANTS
            contract.written = false
            contract.writtenType = nil
        #endif
        address.assumingMemoryBound(to: T.self).deinitialize(count: 1)
    }

    /// Turns the written `T` into an `Optional` of it in place: storage made for `T?`, which a `T?` requested and a
    /// `T` answered.
    @inlinable
    @inline(__always)
    package func wrapInOptional<T>(_: T.Type) {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(contract.written, "wrapped before it was written")
            contract.check(contract.isRead(as: T?.self), "wrapped as \(T?.self), not as \(contract.typeName)")
            contract.check(
                contract.writtenType.map { ObjectIdentifier($0) == ObjectIdentifier(T.self) } ?? true,
                "wrapped as \(T?.self), though it holds a \(contract.writtenType.map { "\($0)" } ?? "value")")
            contract.writtenType = T?.self
        #endif
        let value = address.assumingMemoryBound(to: T.self).move()
        address.initializeMemory(as: T?.self, to: value)
    }

    // MARK: Checks

    /// Checks that the storage is unwritten and made for `T` (or for an `Optional` of it).
    @inlinable
    @inline(__always)
    func checkWrite<T>(of _: T.Type) {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(!contract.written, "written twice")
            contract.check(contract.accepts(T.self), "written with a value of \(T.self), not of \(contract.typeName)")
            contract.written = true
            contract.writtenType = T.self
        #endif
    }

    /// Checks that the storage is written and made for `T` (or for an `Optional` of it, not yet wrapped).
    @inlinable
    @inline(__always)
    func checkWritten<T>(as _: T.Type) {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(contract.written, "read before it was written")
            contract.check(contract.accepts(T.self), "read as \(T.self), not as \(contract.typeName)")
        #endif
    }

    /// Checks that the storage holds nothing.
    @inlinable
    @inline(__always)
    func checkUnwritten(_ rule: String) {
        #if PLEXUS_CHECK_INVARIANTS
            contract.check(!contract.written, rule)
        #endif
    }
}

#if PLEXUS_CHECK_INVARIANTS
    /// What a checked build knows of an `InstanceStorage`: the type it was made for and whether it holds an instance.
    /// A class, so that every copy of the storage sees one state.
    @usableFromInline
    package final class InstanceStorageContract {
        /// The type the storage was made for, if its maker knew it.
        @usableFromInline let type: Any.Type?
        /// Whether the storage holds an instance.
        @usableFromInline var written: Bool
        /// The type of the value written, where the write named it (`nil` before a write, or for a reference written
        /// as such): what `wrapInOptional` checks it wraps.
        @usableFromInline var writtenType: Any.Type?

        /// The state of storage made for `type` (`nil`: not known), written or not.
        @inlinable
        init(type: Any.Type?, written: Bool) {
            self.type = type
            self.written = written
        }

        /// Whether a value of `written` may initialize the storage: its own type, or the type its `Optional` wraps.
        @usableFromInline
        func accepts(_ written: Any.Type) -> Bool {
            guard let type else { return true }
            func optional<W>(_: W.Type) -> Any.Type { W?.self }
            return ObjectIdentifier(written) == ObjectIdentifier(type)
                || ObjectIdentifier(optional(written)) == ObjectIdentifier(type)
        }

        /// Whether the storage may be read as `read`: its own type.
        @usableFromInline
        func isRead(as read: Any.Type) -> Bool {
            guard let type else { return true }
            return ObjectIdentifier(read) == ObjectIdentifier(type)
        }

        /// The type's name, for a message.
        @usableFromInline
        var typeName: String { type.map { "\($0)" } ?? "an unknown type" }

        /// Stops the process unless `holds`, naming the broken rule.
        @usableFromInline
        func check(_ holds: Bool, _ rule: @autoclosure () -> String) {
            guard !holds else { return }
            preconditionFailure("Plexus: instance storage for \(typeName) broke its contract: \(rule())")
        }
    }
#endif

/// A resolve's runtime arguments, read-only: the value the caller passed (a tuple for several), or the tuple
/// auto-wiring laid out (`ArgumentTuple`). One word, the address; the caller keeps the value alive for the resolve.
@usableFromInline
package struct ResolveArguments {
    /// The first byte of the arguments.
    @usableFromInline let address: UnsafeRawPointer

    /// The arguments at `address`, which the caller keeps alive and unchanged while they are used.
    @inlinable
    package init(at address: UnsafeRawPointer) {
        self.address = address
    }

    /// No arguments: the fixed address of the zero-sized ones.
    @inlinable
    package static var none: ResolveArguments { ResolveArguments(at: zeroSizedArgumentsAddress) }

    /// Calls `body` with `arguments`, whose address is never null-like, also when they take no memory.
    @inlinable
    package static func with<Arguments, R>(
        _ arguments: Arguments, _ body: (ResolveArguments) throws -> R
    ) rethrows -> R {
        if MemoryLayout<Arguments>.size == 0 { return try body(.none) }
        return try withUnsafePointer(to: arguments) { try body(ResolveArguments(at: UnsafeRawPointer($0))) }
    }

    /// The address handed to a factory made where a declaration of the core cannot be named (code inlined into an
    /// application), which reads its arguments from it as their type.
    @inlinable
    package var addressForFactory: UnsafeRawPointer { address }

    /// The arguments, as the `A` they are.
    @inlinable
    package func load<A>(_: A.Type) -> A {
        address.assumingMemoryBound(to: A.self).pointee
    }
}

/// The arguments tuple auto-wiring lays out and fills, on the stack for one call: each argument resolved into its own
/// place (`element(at:for:)`), then the whole handed to the factory (`arguments`).
@usableFromInline
package struct ArgumentTuple {
    /// The first byte of the tuple.
    @usableFromInline let address: UnsafeMutableRawPointer

    /// Calls `body` with an uninitialized tuple of `byteCount` bytes aligned to `alignment`.
    @inlinable
    package static func withUninitialized(
        byteCount: Int, alignment: Int, _ body: (ArgumentTuple) throws -> Void
    ) rethrows {
        try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: alignment) { buffer in
            // Arguments that take no memory may get no address; their values never read or write it.
            try body(
                ArgumentTuple(
                    address: buffer.baseAddress ?? UnsafeMutableRawPointer(mutating: zeroSizedArgumentsAddress)))
        }
    }

    /// The tuple at `address`, which its maker (`withUninitialized`) allocated.
    @inlinable
    init(address: UnsafeMutableRawPointer) {
        self.address = address
    }

    /// Storage for the argument of `type` at `offset`, uninitialized.
    @inlinable
    package func element(at offset: Int, for type: Any.Type) -> InstanceStorage {
        InstanceStorage(uninitialized: address + offset, for: type)
    }

    /// The argument of `type` at `offset`, written, for the engine to destroy.
    @inlinable
    package func writtenElement(at offset: Int, for type: Any.Type) -> InstanceStorage {
        InstanceStorage(initialized: address + offset, for: type)
    }

    /// The tuple, every element written, as the factory's arguments.
    @inlinable
    package var arguments: ResolveArguments { ResolveArguments(at: UnsafeRawPointer(address)) }
}
