/// A stack of plain values in memory it owns: the frames of a resolution graph (the engine's
/// `ResolutionGraph.State.frames`), innermost last.
///
/// Pushing is a store and an increment, popping a decrement: an array would check its uniqueness and capacity on
/// every factory (`Benchmarks/profile unique/plexus` counts what that costs). An element is destroyed when it is
/// popped; the engine's frames are plain values in a release build (an identifier, an address, an unretained owner),
/// so that compiles to nothing. The stack is not copyable and frees its memory when it ends, so the memory can neither
/// be shared nor outlive it. Positions are checked against the count in every build.
@usableFromInline package struct FrameStack<Element>: ~Copyable {
    /// The elements, outermost first, `count` of them initialized.
    @usableFromInline var base: UnsafeMutablePointer<Element>
    /// How many elements `base` has room for.
    @usableFromInline var capacity: Int
    /// The number of elements on the stack.
    @usableFromInline package private(set) var count = 0

    /// An empty stack with room for 32 elements.
    package init() {
        capacity = 32
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The positions of the elements, outermost first.
    package var indices: Range<Int> { 0..<count }

    /// The element at `position`, which must be one of `indices`.
    @inlinable package subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "FrameStack index out of range")
        return base[position]
    }

    /// The innermost element, `nil` when the stack is empty.
    @inlinable package var last: Element? {
        count > 0 ? base[count - 1] : nil
    }

    /// A copy of the elements, outermost first (for the cold paths: cycle reports, contexts).
    package var elements: [Element] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Pushes `element`, doubling the memory when it is full.
    @inlinable @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Pops the innermost element (none on an empty stack: every pop follows its push).
    @inlinable @inline(__always)
    package mutating func removeLast() {
        guard count > 0 else { return }
        count -= 1
        (base + count).deinitialize(count: 1)
    }

    /// Pops every element; the memory stays.
    package mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Whether an element satisfies `predicate`, looking from the outermost.
    @inlinable @inline(__always)
    package func contains(where predicate: (Element) -> Bool) -> Bool {
        var index = 0
        while index < count {
            if predicate(base[index]) { return true }
            index += 1
        }
        return false
    }

    /// Doubles the room, moving the elements.
    @usableFromInline mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (larger, capacity * 2)
    }
}
