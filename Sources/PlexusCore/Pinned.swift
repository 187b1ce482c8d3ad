/// The address of a value that its holder keeps in place while the address is used: the first stored property of an
/// object (a slot's key, a remembered route's, an accessor entry's), or a value on the stack of a call that runs the
/// code using it. One word; read, never written, and never freed through it.
///
/// Why an address and not a copy: a definition key holds its tag, a `String` when it has one, so a copy retains and
/// releases it; the resolve path hands its key down through every stage and records it in each frame, where a cycle's
/// path or a hook's context reads it only on failure.
///
/// Contract: the holder keeps the value where it is, unchanged, for every use: an object's stored property while the
/// object lives and the property is a `let` (the engine's keys are), a stack value for the duration of `with`. Builds
/// that check invariants check, as the address of an object's property is taken, that the property holds the value
/// the object stores there (`checkFirstStoredProperty(of:is:)`, called by each such object's initializer).
@usableFromInline package struct Pinned<Value> {
    @usableFromInline let address: UnsafePointer<Value>

    @inlinable @inline(__always)
    init(address: UnsafePointer<Value>) {
        self.address = address
    }

    /// The address of `object`'s first stored property, a `Value`: a class lays its stored properties out in the order
    /// they are declared, after the object's header. The object's initializer checks it
    /// (`checkFirstStoredProperty(of:is:)`).
    @inlinable @inline(__always)
    package static func firstStoredProperty(of object: AnyObject) -> Pinned {
        Pinned(address: UnsafePointer(_getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: Value.self)))
    }

    /// Checks, in a debug build or one that checks invariants, that `object`'s first stored property holds `value`,
    /// which the object's initializer has just stored there: what `firstStoredProperty(of:)` rests on. Nothing in
    /// other builds.
    @inlinable @inline(__always)
    package static func checkFirstStoredProperty(of object: AnyObject, is value: @autoclosure () -> Value)
    where Value: Equatable {
        #if PLEXUS_CHECK_INVARIANTS
            precondition(
                firstStoredProperty(of: object).value == value(),
                "Plexus engine invariant broken: \(Value.self) is not the first stored property of \(type(of: object))")
        #else
            assert(
                firstStoredProperty(of: object).value == value(),
                "\(Value.self) is not the first stored property of \(type(of: object))")
        #endif
    }

    /// Calls `body` with the address of `value`, kept in place for the call.
    @inlinable @inline(__always)
    package static func with<Result>(_ value: Value, _ body: (Pinned) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: value) { try body(Pinned(address: $0)) }
    }

    /// The value at `address`, which a reader of the engine's layouts found in place (an injected property's
    /// context, in its field's memory) and whose holder keeps it there.
    @inlinable @inline(__always)
    package static func at(_ address: UnsafePointer<Value>) -> Pinned {
        Pinned(address: address)
    }

    /// The value, copied out.
    @inlinable @inline(__always)
    package var value: Value { address.pointee }
}
