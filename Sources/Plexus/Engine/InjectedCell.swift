/// Where an `@Injected` property keeps its value: a `T` on the heap, or no allocation for "no value".
///
/// A stored `T?` in the generic box costs a generic-metadata lookup for `Optional<T>` each time code that is not
/// specialized for `T` assigns or destroys it (Plexus's injection and the box's `deinit` both are): about 560
/// instructions each, a third of auto-injecting a property (`Benchmarks/profile injected-3/plexus`). The cell is not
/// generic itself, so its layout is known without metadata either; its methods use `T`'s own value witnesses, which
/// the box's metadata carries, and the reads are inlinable, so a property read in the caller's module is specialized
/// there.
///
/// Invariant: `pointer` is `nil` or owns one initialized `T` (always the same `T`, the box's), allocated by `store`
/// and freed by `clear`. The one owner of a cell, the box, never copies it out and calls `clear` in its `deinit`.
@usableFromInline
struct InjectedCell {
    @usableFromInline
    var pointer: UnsafeMutableRawPointer?

    /// An empty cell.
    init() {}

    /// The value held, if any.
    @inlinable
    func value<T>(as _: T.Type) -> T? {
        pointer?.assumingMemoryBound(to: T.self).pointee
    }

    /// Holds `value`, replacing the one held. The replaced value is destroyed last, once the cell holds `value`: code
    /// its `deinit` runs finds the cell consistent (the box's accesses are not checked dynamically).
    @inlinable
    mutating func store<T>(_ value: T) {
        if let pointer {
            let typed = pointer.assumingMemoryBound(to: T.self)
            let replaced = typed.move()
            withExtendedLifetime(replaced) { typed.initialize(to: value) }
        } else {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
            pointer.initialize(to: value)
            self.pointer = UnsafeMutableRawPointer(pointer)
        }
    }

    /// Drops the value held, if any. The cell is empty before the value is destroyed.
    @inlinable
    mutating func clear<T>(_: T.Type) {
        guard let pointer else { return }
        self.pointer = nil
        let typed = pointer.assumingMemoryBound(to: T.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
    }
}
