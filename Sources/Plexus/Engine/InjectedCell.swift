internal import PlexusCore

/// Where an `@Injected` property keeps its value: in three words of the box when it fits there (a class reference, a
/// class-bound existential, most small values), else in a heap copy whose address the first word holds.
///
/// A stored `T?` in the generic box costs a generic-metadata lookup for `Optional<T>` each time code that is not
/// specialized for `T` assigns or destroys it (Plexus's injection and the box's `deinit` both are): about 560
/// instructions each, a third of auto-injecting a property (`Benchmarks/profile injected-3/plexus`). The cell is not
/// generic itself, so its layout is known without metadata either; its methods use `T`'s own value witnesses, which
/// the box's metadata carries, and they are inlinable, so a property read in the caller's module is specialized there.
///
/// Invariant: with `isSet`, the cell owns one initialized `T` (always the same `T`, the box's): in `storage` itself
/// when `fitsInline(T.self)`, else at the address in `storage.0`, allocated by `store` and freed by `clear`. The one
/// owner of a cell, the box, never copies it out and calls `clear` in its `deinit`.
@usableFromInline
struct InjectedCell {
    @usableFromInline
    var storage: (UInt, UInt, UInt) = (0, 0, 0)
    @usableFromInline
    var isSet = false

    /// An empty cell.
    init() {}

    /// Whether a `T` is kept in `storage` itself.
    @inlinable
    static func fitsInline<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= MemoryLayout<(UInt, UInt, UInt)>.size
            && MemoryLayout<T>.alignment <= MemoryLayout<UInt>.alignment
    }

    /// The value held, if any (a copy).
    @inlinable
    func value<T>(as _: T.Type) -> T? {
        guard isSet else { return nil }
        guard Self.fitsInline(T.self) else {
            return UnsafeRawPointer(bitPattern: storage.0).unsafelyUnwrapped.load(as: T.self)
        }
        return withUnsafeBytes(of: storage) { $0.load(as: T.self) }
    }

    /// Holds `value`, replacing the one held. A replaced value is destroyed last, once the cell holds `value`: code
    /// its `deinit` runs finds the cell consistent (the box's accesses are not checked dynamically).
    @inlinable
    mutating func store<T>(_ value: T) {
        guard isSet else {
            initialize(to: value)
            return
        }
        let replaced = withAddress(of: T.self) { $0.move() }
        withExtendedLifetime(replaced) { withAddress(of: T.self) { $0.initialize(to: value) } }
    }

    /// Holds `object`, whose reference it takes over, as the box's value when its `T` is a class (`T.self is
    /// AnyClass`, so `fitsInline`): `store` without code generic over `T`. A replaced instance is released last, as
    /// `store` destroys it.
    mutating func store(retained object: Owned<AnyObject>) {
        let reference = UInt(bitPattern: object.address)
        guard isSet else {
            storage.0 = reference
            isSet = true
            return
        }
        let replaced = storage.0
        storage.0 = reference
        Owned<AnyObject>(adoptingAddress: UnsafeMutableRawPointer(bitPattern: replaced).unsafelyUnwrapped).release()
    }

    /// Drops the value held, if any. The cell is empty before the value is destroyed.
    @inlinable
    mutating func clear<T>(_: T.Type) {
        guard isSet else { return }
        isSet = false
        let dropped = withAddress(of: T.self) { $0.move() }
        if !Self.fitsInline(T.self), let heap = UnsafeMutableRawPointer(bitPattern: storage.0) {
            storage.0 = 0
            heap.deallocate()
        }
        _ = consume dropped
    }

    /// Destroys the value held, if any, in place: for the box's `deinit`, when nothing else can reach the cell, so the
    /// value is not moved out first as `clear` moves it.
    @inlinable
    mutating func destroy<T>(_: T.Type) {
        guard isSet else { return }
        isSet = false
        // A class instance is one reference, in the first word: released without code generic over `T`.
        if T.self is AnyClass {
            Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: storage.0).unsafelyUnwrapped).release()
            return
        }
        withAddress(of: T.self) { _ = $0.deinitialize(count: 1) }
        if !Self.fitsInline(T.self), let heap = UnsafeMutableRawPointer(bitPattern: storage.0) {
            storage.0 = 0
            heap.deallocate()
        }
    }

    /// Takes `value` into an empty cell.
    @inlinable
    mutating func initialize<T>(to value: T) {
        if Self.fitsInline(T.self) {
            withUnsafeMutableBytes(of: &storage) {
                _ = $0.baseAddress.unsafelyUnwrapped.initializeMemory(as: T.self, to: value)
            }
        } else {
            let heap = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
            heap.initializeMemory(as: T.self, to: value)
            storage.0 = UInt(bitPattern: heap)
        }
        isSet = true
    }

    /// Calls `body` with the address of the `T` held.
    @inlinable
    mutating func withAddress<T, R>(of _: T.Type, _ body: (UnsafeMutablePointer<T>) -> R) -> R {
        guard Self.fitsInline(T.self) else {
            return body(
                UnsafeMutableRawPointer(bitPattern: storage.0).unsafelyUnwrapped.assumingMemoryBound(to: T.self))
        }
        return withUnsafeMutableBytes(of: &storage) {
            body($0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: T.self))
        }
    }
}
