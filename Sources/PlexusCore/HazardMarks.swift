public import PlexusSystem

/// The calling thread's hazard marks: each says that the thread runs the factory of a slot without holding a
/// reference to it, so a change that drops the slot from its container keeps it until the mark is cleared
/// (`retireMarked`, in `Plexus`'s Engine/DependencyContainer+Retired.swift, finds every mark with `marked()`). A mark
/// names an object by its address only: the slot type is the engine's, and the marks need nothing else of it.
@usableFromInline package enum HazardMarks {
    /// Marks `slot` for the calling thread: returns the mark to pass to `clear`, or `-1` when the thread has no free
    /// mark (deeply nested resolves; retain the slot then). Set it while the slot is read under its container's lock
    /// or reader bias, so that a writer that removes the slot afterwards sees it: the mark is stored relaxed, and the
    /// read section it is set in ends with a release (the reader bias's end, or the unlock), which a writer acquires
    /// before it looks for marks.
    @inlinable @inline(__always)
    package static func mark(_ slot: some AnyObject) -> Int {
        plexus_hazard_mark(Borrowed(slot).address)
    }

    /// Clears `mark`, the last one the calling thread set and has not cleared yet: the thread's use of the slot
    /// happens before it (a release store).
    @inlinable @inline(__always)
    package static func clear(_ mark: Int) {
        plexus_hazard_clear(mark)
    }

    /// Whether any container keeps a slot retired (a count read without a lock): when none does, a change that
    /// dropped no slot has nothing to look at.
    @inlinable
    package static var anyRetired: Bool { plexus_retired_count() != 0 }

    /// Adds `delta` to the process-wide count of retired slots (negative when they are released).
    @inlinable
    package static func countRetired(_ delta: Int) { plexus_retired_add(delta) }

    /// The objects some thread runs a factory of without holding them (`plexus_hazard_collect`), as of now.
    @inlinable
    package static func marked() -> Marked {
        // Usually no thread runs a factory unmarked: then no array and no set is made.
        let none = withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 1) { buffer in
            plexus_hazard_collect(buffer.baseAddress, 0) == 0
        }
        if none { return Marked(addresses: []) }
        var capacity = 64
        while true {
            var total = 0
            let marks = [UnsafeRawPointer?](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                total = plexus_hazard_collect(buffer.baseAddress, capacity)
                initialized = min(total, capacity)
            }
            if total <= capacity {
                return Marked(addresses: Set(marks.compactMap { $0.map(UnsafeMutableRawPointer.init(mutating:)) }))
            }
            // More marks than room (threads set them meanwhile): look again with room for them.
            capacity = total + 32
        }
    }

    /// The objects marked when `marked()` looked, by address.
    @usableFromInline package struct Marked {
        @usableFromInline let addresses: Set<UnsafeMutableRawPointer>

        /// The objects at `addresses`.
        @inlinable
        init(addresses: Set<UnsafeMutableRawPointer>) {
            self.addresses = addresses
        }

        /// Whether no object was marked.
        @inlinable
        package var isEmpty: Bool { addresses.isEmpty }

        /// Whether `object` was marked.
        @inlinable
        package func contains(_ object: some AnyObject) -> Bool {
            addresses.contains(Borrowed(object).address)
        }
    }
}
