/// The frames of a resolution graph, innermost last, in memory the graph owns (`ResolutionGraph.State.frames`).
///
/// Pushing is a store and an increment, popping a decrement: an array would check its uniqueness and capacity on
/// every factory (`Benchmarks/profile unique/plexus` counts what that costs). Frames are plain values (an
/// identifier, a pointer, a borrowed owner), so dropping one releases nothing: its deinitialization compiles to
/// nothing, except in a build with `PLEXUS_CHECK_INVARIANTS`, where the borrowed owner keeps a weak shadow. The graph
/// frees the memory when it ends (`deallocate()`).
struct FrameStack: RandomAccessCollection {
    typealias Frame = ResolutionGraph.Frame

    private var base: UnsafeMutablePointer<Frame>
    private var capacity: Int
    /// The number of frames on the stack.
    private(set) var count = 0

    init() {
        capacity = 32
        base = .allocate(capacity: capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Frame {
        // Positions come from this graph's own code (the collection's indices), never from user input.
        precondition(position >= 0 && position < count, "FrameStack index out of range")
        return base[position]
    }

    /// The innermost frame (no bounds check beyond the count).
    var last: Frame? {
        count > 0 ? base[count - 1] : nil
    }

    /// Pushes `frame`, doubling the memory when it is full.
    @inline(__always)
    mutating func append(_ frame: Frame) {
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        count += 1
    }

    /// Pops the innermost frame (none on an empty stack: every pop follows its push).
    @inline(__always)
    mutating func removeLast() {
        if count > 0 {
            count -= 1
            (base + count).deinitialize(count: 1)
        }
    }

    /// Pops every frame; the memory stays.
    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Whether the factory of the slot `id` has a frame on the stack.
    @inline(__always)
    func containsFactory(of id: ObjectIdentifier) -> Bool {
        var index = 0
        while index < count {
            if case .factory(let slot) = base[index].kind, slot == id { return true }
            index += 1
        }
        return false
    }

    /// Frees the memory; call once, when the graph ends.
    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (larger, capacity * 2)
    }
}
