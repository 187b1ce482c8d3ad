/// What the engine reads of the Swift runtime's layout of a value instead of asking the runtime, and the one function
/// it calls as another function type: each assumption stated here, once, and checked against every value shape by the
/// engine's tests (`Engine/ValueShapeTests`, the typed accessors' tests).

/// Whether `type` is an `Optional`, read from its metadata's kind word: a stable part of the Swift ABI, where
/// `Optional`'s kind is 0x202 and a class's first word is 0 or its isa pointer, never that. So no conformance check is
/// made.
@inlinable @inline(__always)
package func isOptionalMetadata(_ type: Any.Type) -> Bool {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x202
}

/// The two machine words of `string`'s representation, `nil` where a `String` is not two words: a hash over them
/// costs two multiplications where one over its bytes reads them all. Equal strings stored differently (a literal and
/// the same text built at run time) give different words, so a table keyed by them may hold one entry per
/// representation; nothing may rest on equal strings giving equal words.
@inlinable @inline(__always)
package func representationWords(of string: String) -> (UInt, UInt)? {
    guard MemoryLayout<String>.size == 2 * MemoryLayout<UInt>.size else { return nil }
    return unsafeBitCast(string, to: (UInt, UInt).self)
}

/// `make` as the plain synchronous function it is underneath. A synchronous function's global actor does not change
/// how it is called, only where it may be: the caller must call the result only on the main thread (the engine does,
/// `MainActorAccessorCore.plain` says where).
@inlinable
package func withoutMainActorIsolation<T>(
    _ make: @escaping @MainActor @Sendable () throws -> T
) -> @Sendable () throws -> T {
    unsafeBitCast(make, to: (@Sendable () throws -> T).self)
}
