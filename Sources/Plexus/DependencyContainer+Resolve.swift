extension DependencyContainer {
    /// Resolves an instance of `T`, as the call site's type says.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// let api = try container.resolve(tag: "prod") as Api
    /// let maybe: Service? = try container.resolve()        // T? and T! resolve through T's definition
    /// ```
    ///
    /// Lookup, first match wins: the exact key; the same key untagged; a definition that
    /// ``Definition/implements(_:tag:)`` the type (exact tag, then untagged); auto-wiring from a definition that
    /// takes arguments; the collaborators, depth first in the order given.
    ///
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: ``ResolutionError`` when nothing matches or the graph has a constructor cycle, and any error a
    ///   factory or hook throws, unchanged. The container stays usable after any error.
    @inlinable
    public func resolve<T>(tag: DependencyTagConvertible?) throws -> T {
        try resolveTyped(tag: tag?.dependencyTag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
    }

    /// Resolves an instance of `T` under a tag of a concrete type — a string or integer literal, an enum of tags —
    /// as the call site's type says: the same lookup as ``resolve(tag:)-67ys9``, chosen by the compiler whenever the
    /// tag's type is known, so the tag is converted without an existential box (an existential argument is opened).
    ///
    /// ```swift
    /// let api = try container.resolve(tag: "prod") as Api
    /// let db: Database = try container.resolve(tag: Environment.staging)
    /// ```
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T, Convertible: DependencyTagConvertible>(tag: Convertible) throws -> T {
        try resolveTyped(tag: tag.dependencyTag, typeOfArguments: Void.self, arguments: zeroSizedArguments)
    }

    /// Resolves an untagged instance of `T`, as the call site's type says: the same as ``resolve(tag:)-67ys9`` with no
    /// tag.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// ```
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T>() throws -> T {
        try resolveTyped()
    }

    /// Resolves an instance of `T` from a definition that takes runtime arguments.
    ///
    /// ```swift
    /// container.register { (id: Int, title: String) in Cell(id: id, title: title) }
    /// let cell: Cell = try container.resolve(arguments: 42, "Inbox")
    /// ```
    ///
    /// Arguments match the definition by exact static types, count and order; resolving with arguments never
    /// auto-wires.
    /// - Parameters:
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<T, each A>(tag: DependencyTagConvertible? = nil, arguments: repeat each A) throws -> T {
        let tag = tag?.dependencyTag
        return try withArgumentsPointer(to: (repeat each arguments)) {
            try resolveTyped(tag: tag, typeOfArguments: (repeat each A).self, arguments: $0)
        }
    }

    /// Resolves an instance of a type known only at run time.
    ///
    /// ```swift
    /// let service = try container.resolve(Service.self) as? Service
    /// ```
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    public func resolve(_ type: Any.Type, tag: DependencyTagConvertible? = nil) throws -> Any {
        let key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try resolveAny(key, arguments: zeroSizedArguments)
    }

    /// Resolves an instance of a type known only at run time, from a definition that takes runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)-67ys9``.
    @inlinable
    public func resolve<each A>(_ type: Any.Type, tag: DependencyTagConvertible? = nil, arguments: repeat each A)
        throws -> Any
    {
        let key = DefinitionKey(type: type, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        return try withArgumentsPointer(to: (repeat each arguments)) { try resolveAny(key, arguments: $0) }
    }

    // MARK: - From the generic surface to the non-generic core

    /// Resolves the key of `T`, `typeOfArguments` and `tag` into storage for a `T`: the core copies the instance
    /// straight in when it has the requested type (a `T?` answered by `T` is wrapped in place), and otherwise puts
    /// it there as `Any` (through a forwarding registration), cast out of line.
    ///
    /// The key is built inside the library: a `DefinitionKey` made and destroyed in the caller's module cost about
    /// 250 instructions per resolve there (its tag and diagnostics were destroyed through generic value witnesses).
    /// For the same reason no `Any?` comes back to the caller's module: destroying even a `nil` one there went
    /// through generic value witnesses too (about 200 instructions per resolve).
    @inlinable
    func resolveTyped<T>(tag: Tag?, typeOfArguments: Any.Type, arguments: UnsafeRawPointer) throws -> T {
        try withResolveStorage(for: T.self) { storage in
            if try resolveRaw(T.self, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: storage) {
                return storage.assumingMemoryBound(to: T.self).move()
            }
            return try cast(movingFrom: storage, typeOfArguments: typeOfArguments, tag: tag)
        }
    }

    /// `resolveTyped(tag:typeOfArguments:arguments:)` with no tag and no arguments, the most common resolve: no tag
    /// value is passed around (the caller's module copied and destroyed even a `nil` one through generic value
    /// witnesses).
    @inlinable
    func resolveTyped<T>() throws -> T {
        try withResolveStorage(for: T.self) { storage in
            if try resolveRaw(T.self, into: storage) { return storage.assumingMemoryBound(to: T.self).move() }
            return try cast(movingFrom: storage, typeOfArguments: Void.self, tag: nil)
        }
    }

    /// Uninitialized stack storage that can hold either a `T` or an `Any`, never empty.
    @inlinable
    @inline(__always)
    func withResolveStorage<T, R>(for type: T.Type, _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(
            byteCount: Swift.max(MemoryLayout<T>.size, MemoryLayout<Any>.size),
            alignment: Swift.max(MemoryLayout<T>.alignment, MemoryLayout<Any>.alignment)
        ) { buffer in
            guard let storage = buffer.baseAddress else {
                // Unreachable (the byte count is never zero); heap storage keeps this free of force-unwraps.
                let heap = UnsafeMutableRawPointer.allocate(byteCount: buffer.count, alignment: 16)
                defer { heap.deallocate() }
                return try body(heap)
            }
            return try body(storage)
        }
    }

    /// An instance handed back as `Any` at `storage` (through a forwarding registration), moved out and cast to a
    /// `T`. Out of line, so that the cast's existential temporaries stay off the stack of nested resolves.
    @usableFromInline
    @inline(never)
    func cast<T>(movingFrom storage: UnsafeMutableRawPointer, typeOfArguments: Any.Type, tag: Tag?) throws -> T {
        try cast(storage.assumingMemoryBound(to: Any.self).move(), typeOfArguments: typeOfArguments, tag: tag)
    }

    /// An instance handed back as `Any`, as a `T`.
    @usableFromInline
    func cast<T>(_ instance: Any, typeOfArguments: Any.Type, tag: Tag?) throws -> T {
        guard let value = instance as? T else {
            let key = DefinitionKey(type: T.self, typeOfArguments: typeOfArguments, tag: tag)
            throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
        }
        return value
    }

    /// `resolveRaw(_:arguments:into:)` for the untagged key of `type` without arguments.
    @usableFromInline
    func resolveRaw(_ type: Any.Type, into result: UnsafeMutableRawPointer) throws -> Bool {
        var key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: nil)
        return try resolveRaw(&key, arguments: zeroSizedArguments, into: result)
    }

    /// `resolveRaw(_:arguments:into:)` for the key of `type`, `typeOfArguments` and `tag`.
    @usableFromInline
    func resolveRaw(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        var key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        return try resolveRaw(&key, arguments: arguments, into: result)
    }

    @usableFromInline
    func resolveAny(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> Any {
        try withUnsafeTemporaryAllocation(of: Any.self, capacity: 1) { buffer in
            guard let storage = buffer.baseAddress else { throw ResolutionError.definitionNotFound(key: key) }
            _ = try resolveInGraph(key, arguments: arguments, typed: false, into: UnsafeMutableRawPointer(storage))
            return storage.move()
        }
    }

    /// The core of every resolve: finds `key` and produces its instance inside the calling thread's resolution
    /// graph. Returns `true` when it initialized `result` with the instance, and `false` when it put it there as
    /// `Any` instead (an instance that comes through a forwarding registration).
    ///
    /// Every nested resolve recurses through here, so the work is split into out-of-line steps whose locals are
    /// gone before a factory runs: deciding (under a lock) stays off the stack of the factories below.
    ///
    /// `key` is `inout` only so that the direct path can point at it without copying it.
    @inline(__always)
    func resolveRaw(_ key: inout DefinitionKey, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer)
        throws -> Bool
    {
        // Graph report (§21): while `validate` records, every resolve takes the general path, where edges are seen.
        if !GraphRecorder.isActive {
            let step = directStep(for: key, into: result)
            switch step {
            case .copied:
                return true
            case .create(let slot, let type, owner: nil):
                try withUnsafePointer(to: &key) {
                    try create(directly: slot, type: type, $0, arguments: arguments, into: result)
                }
                return true
            case .general:
                break
            default:
                // Through a collaborator, for a `T?`, or a singleton's first construction: out of line, so that their
                // temporaries stay off the stack of every nested resolve.
                try carryOut(step, &key, arguments: arguments, into: result)
                return true
            }
        }
        return try resolveInGraph(key, arguments: arguments, typed: true, into: result)
    }

    /// Carries out the less common steps of the direct path (`directStep(for:into:)`).
    @inline(never)
    private func carryOut(
        _ step: DirectStep, _ key: inout DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        switch step {
        case .copied, .general:
            return
        case .create(let slot, let type, let owner):
            // The owner's reference was taken from the route's weak reference, once (`directStep`).
            let owner = owner?.takeRetainedValue() ?? self
            try withUnsafePointer(to: &key) {
                try owner.create(directly: slot, type: type, $0, arguments: arguments, into: result)
            }
        case .createWrapped(let slot, let type, let owner):
            let owner = owner?.takeRetainedValue() ?? self
            try owner.createWrapped(slot, type: type, requested: key, arguments: arguments, into: result)
        case .createSingleton(let slot, let claim, let owner):
            let owner = owner?.takeRetainedValue() ?? self
            try withUnsafePointer(to: &key) {
                try owner.createSingleton(directly: slot, claim: claim, $0, arguments: arguments, into: result)
            }
        case .createAutoWired(let slot, let type):
            try withUnsafePointer(to: &key) { try create(autoWiring: slot, type: type, $0, into: result) }
        }
    }

    /// The general path: the lookup across containers, in a scope of the resolution graph. With `typed`, the
    /// instance goes into `result` when it has the requested type (returns `true`); otherwise `result` receives it
    /// as `Any` (returns `false`).
    @inline(never)
    private func resolveInGraph(
        _ key: DefinitionKey, arguments: UnsafeRawPointer, typed: Bool, into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        let typedResult = typed ? result : nil
        let delivery = try inGraph(into: typedResult) { graph in
            var search = Search(key)
            if let delivery = try find(&search, arguments: .pointer(arguments), into: typedResult, graph: graph) {
                return delivery
            }
            // The "required by" chain is what the graph is making right now, innermost first.
            throw notFound(key, requiredBy: graph.dependentKeys.reversed())
        }
        switch delivery {
        case .typed:
            return true
        case .value(let instance):
            result.initializeMemory(as: Any.self, repeating: instance, count: 1)
            return false
        }
    }

    @inline(never)
    private func notFound(_ key: DefinitionKey, requiredBy: [DefinitionKey]) -> ResolutionError {
        .definitionNotFound(key: diagnose(key, requiredBy: requiredBy))
    }

    /// Logs the failure of an outermost resolve.
    @inline(never)
    func logFailure(_ error: any Error) {
        log(.errors, "Plexus: \(error)")
    }

    /// Logs `error`, which ended an outermost resolve, unless it is an `AsyncStep`: no failure, the async resolve
    /// that allowed it takes over (Concurrency/). Out of line: the cast's temporary (an `AsyncStep`, some 250 bytes)
    /// would otherwise sit in the stack frame of every nested resolve.
    @inline(never)
    func logFailure(ofOutermost error: any Error) {
        if !(error is AsyncStep) { logFailure(error) }
    }

    /// How an instance was handed over.
    enum Delivery {
        /// Copied into the caller's storage, a value the `TypeOps` describe.
        case typed(TypeOps)
        /// Returned as `Any`.
        case value(Any)
    }

    /// Runs `body` as one `resolve` call: a scope of the calling thread's resolution graph (ResolutionGraph+Scopes).
    /// The scope owns what is created inside it; when `body` succeeds it finishes or hands over that work, and when
    /// `body` (or finishing) throws, it drops that work. If finishing fails after the instance was copied into
    /// `result`, the instance is destroyed again.
    // `logsFailure` lets `validate` log (or ignore) failures itself.
    func inGraph(
        into result: UnsafeMutableRawPointer? = nil, logsFailure: Bool = true,
        _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try inGraph(graph, into: result, logsFailure: logsFailure, body)
        }
    }

    /// `inGraph(into:logsFailure:_:)` in the calling thread's `graph`, borrowed.
    @inline(__always)
    private func inGraph(
        _ graph: ResolutionGraph, into result: UnsafeMutableRawPointer?, logsFailure: Bool,
        _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        graph.openScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            let delivery = try body(graph)
            do {
                try graph.closeScope()
            } catch {
                if case .typed(let ops) = delivery, let result { ops.destroy(result) }
                throw error
            }
            return delivery
        } catch {
            graph.abandonScope()
            // An `AsyncStep` is no failure: the async resolve that allowed it takes over (Concurrency/).
            if graph.depth == 0, logsFailure { logFailure(ofOutermost: error) }
            throw error
        }
    }
}
