internal import PlexusCore

/// The arguments of a factory, type-erased at registration for auto-wiring: each argument's type, how to handle its
/// values, and its offset in the arguments tuple. Auto-wiring then resolves every argument through the non-generic
/// resolve core straight into a tuple it lays out itself, with no generic code at resolve time: a parameter pack's
/// elements are handled by unspecialized generic code, which looked up generic metadata and boxed the tag for every
/// argument of every auto-wired resolve (`Benchmarks/profile auto-wiring/plexus`).
///
/// A tuple is laid out as its elements in order, each at the next offset its alignment allows; `Blueprint.make`
/// checks the result against the tuple's own size and alignment before using it.
@usableFromInline
struct ArgumentLayout: Sendable {
    /// One argument: its type, its value operations, its offset in the tuple.
    struct Element: Sendable {
        let type: Any.Type
        let ops: TypeOps
        let offset: Int
    }

    private(set) var elements: [Element] = []
    /// The tuple's size and alignment, as laid out so far.
    @usableFromInline private(set) var size = 0
    @usableFromInline private(set) var alignment = 1

    @usableFromInline
    init() {}

    /// Adds an argument of type `A` after those added so far.
    @inlinable
    mutating func append<A>(_: A.Type) {
        append(A.self, ops: TypeOps.of(A.self))
    }

    @usableFromInline
    mutating func append(_ type: Any.Type, ops: TypeOps) {
        let offset = (size + ops.alignment - 1) / ops.alignment * ops.alignment
        elements.append(Element(type: type, ops: ops, offset: offset))
        size = offset + ops.size
        alignment = Swift.max(alignment, ops.alignment)
    }

    /// The auto-wiring closure of a blueprint whose factory takes these arguments.
    @usableFromInline
    var autoWire: @Sendable (DependencyContainer, DependencyContainer.Tag?, Blueprint.ArgumentsBody) throws -> Void {
        { container, tag, body in try container.withAutoWiredArguments(self, tag: tag, body) }
    }

    /// Destroys the first `count` arguments in `tuple`. Out of line: its loop stays off the stack of nested
    /// resolves.
    @inline(never)
    func destroy(_ count: Int, in tuple: ArgumentTuple) {
        for element in elements.prefix(count) {
            element.ops.destroy(tuple.writtenElement(at: element.offset, for: element.type))
        }
    }

    /// Calls `body` with an uninitialized tuple of the arguments.
    fileprivate func withTuple(_ body: (ArgumentTuple) throws -> Void) rethrows {
        try ArgumentTuple.withUninitialized(byteCount: size, alignment: alignment, body)
    }
}

extension DependencyContainer {
    /// Resolves the arguments `layout` describes from this container, passing `tag` down, and calls `body` with a
    /// pointer to them: the tuple its factory takes. Every argument is resolved through the resolve core into its
    /// place in the tuple (the core delivers each as its type). If an argument fails, those already resolved are
    /// destroyed again.
    func withAutoWiredArguments(
        _ layout: ArgumentLayout, tag: Tag?, _ body: (UnsafeRawPointer) throws -> Void
    ) throws {
        try layout.withTuple { tuple in
            var resolved = 0
            defer { layout.destroy(resolved, in: tuple) }
            for element in layout.elements {
                try resolveArgument(element, tag: tag, into: tuple.element(at: element.offset, for: element.type))
                resolved += 1
            }
            try body(tuple.arguments.addressForFactory)
        }
    }

    /// Resolves one argument of an auto-wired factory into `destination`, its place in the arguments tuple.
    @inline(__always)
    private func resolveArgument(
        _ element: ArgumentLayout.Element, tag: Tag?, into destination: InstanceStorage
    ) throws {
        try resolveRaw(
            element.type, typeOfArguments: Void.self, tag: tag, arguments: .none, into: destination)
    }
}
