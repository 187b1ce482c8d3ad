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
    /// takes arguments; the collaborators, depth first in the order given. The key of a typed accessor whose declared
    /// default is registered here resolves as the accessor does (<doc:TypedAccessors>): exact key only, here then in
    /// the collaborators, then that default.
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
    ///
    /// In an `async` function Swift picks the async overload instead (write `try await container.resolve()`); in
    /// top-level code (`main.swift`, a script) it picks this one even after `await`: see
    /// <doc:Concurrency#Which-resolve-Swift-picks>.
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
    /// straight in (a `T?` answered by `T` is wrapped in place; an instance that comes through a forwarding
    /// registration as `Any` is cast there, out of line). Nothing but the storage lives in the caller's frame while
    /// the core runs the factories below it: inlined, this is the only frame the generic surface adds to a nested
    /// resolve.
    ///
    /// The key is built inside the library: a `DefinitionKey` made and destroyed in the caller's module cost about
    /// 250 instructions per resolve there (its tag and diagnostics were destroyed through generic value witnesses).
    /// For the same reason no `Any?` comes back to the caller's module: destroying even a `nil` one there went
    /// through generic value witnesses too (about 200 instructions per resolve).
    @inlinable
    @inline(__always)
    func resolveTyped<T>(tag: Tag?, typeOfArguments: Any.Type, arguments: UnsafeRawPointer) throws -> T {
        try withResolveStorage(for: T.self) { storage in
            try resolveRaw(T.self, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: storage)
            return storage.assumingMemoryBound(to: T.self).move()
        }
    }

    /// `resolveTyped(tag:typeOfArguments:arguments:)` with no tag and no arguments, the most common resolve: no tag
    /// value is passed around (the caller's module copied and destroyed even a `nil` one through generic value
    /// witnesses).
    @inlinable
    @inline(__always)
    func resolveTyped<T>() throws -> T {
        try withResolveStorage(for: T.self) { storage in
            try resolveRaw(T.self, into: storage)
            return storage.assumingMemoryBound(to: T.self).move()
        }
    }

    /// Uninitialized stack storage for a `T`.
    @inlinable
    @inline(__always)
    func withResolveStorage<T, R>(for type: T.Type, _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            guard let storage = buffer.baseAddress else {
                // A zero-sized `T` may get no address; heap storage keeps this free of force-unwraps.
                let heap = UnsafeMutableRawPointer.allocate(
                    byteCount: Swift.max(MemoryLayout<T>.size, 1), alignment: MemoryLayout<T>.alignment)
                defer { heap.deallocate() }
                return try body(heap)
            }
            return try body(UnsafeMutableRawPointer(storage))
        }
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

    /// `resolveRaw(_:typeOfArguments:tag:arguments:into:)` for the untagged key of `type` without arguments.
    @usableFromInline
    func resolveRaw(_ type: Any.Type, into result: UnsafeMutableRawPointer) throws {
        let step = GraphRecorder.isActive ? .general : directStep(untagged: type, into: result)
        switch step {
        case .copied:
            return
        case .createMarked(let slot, let type, let mark):
            try createMarked(slot, type: type, mark: mark, arguments: zeroSizedArguments, into: result)
        case .createAtSlotKey(let slot, let type):
            try create(
                directly: slot, type: type, UnsafePointer(slot.keyStorage), arguments: zeroSizedArguments, into: result)
        case .createMarkedIn(let owner, let slot, let type, let mark):
            try createMarked(in: owner, slot, type: type, mark: mark, arguments: zeroSizedArguments, into: result)
        case .createSingletonAtSlotKey(let slot, let claim):
            try createSingleton(
                directly: slot, claim: claim, UnsafePointer(slot.keyStorage), arguments: zeroSizedArguments,
                into: result)
        default:
            try resolve(
                after: step, type, typeOfArguments: Void.self, tag: nil, arguments: zeroSizedArguments, into: result)
        }
    }

    /// The core of every resolve: finds the key of `type`, `typeOfArguments` and `tag` and produces its instance
    /// inside the calling thread's resolution graph, initializing `result` with it as a `type` (an instance that
    /// comes through a forwarding registration is cast to it).
    ///
    /// Every nested resolve recurses through here, so the work is split into out-of-line steps whose locals are
    /// gone before a factory runs: the key is built and the direct path decided (under a lock, or with the reader
    /// bias) in `directStep`, and the common case — this container's definition registered under exactly the
    /// requested key — runs the factory with its frame pointing at the slot's own copy of the key. No key lives in
    /// this frame while the factory runs.
    @usableFromInline
    func resolveRaw(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        let step =
            GraphRecorder.isActive
            ? .general : directStep(type, typeOfArguments: typeOfArguments, tag: tag, into: result)
        switch step {
        case .copied:
            return
        case .createMarked(let slot, let type, let mark):
            try createMarked(slot, type: type, mark: mark, arguments: arguments, into: result)
        case .createAtSlotKey(let slot, let type):
            try create(directly: slot, type: type, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
        case .createMarkedIn(let owner, let slot, let type, let mark):
            try createMarked(in: owner, slot, type: type, mark: mark, arguments: arguments, into: result)
        case .createSingletonAtSlotKey(let slot, let claim):
            try createSingleton(
                directly: slot, claim: claim, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
        default:
            try resolve(
                after: step, type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: result)
        }
    }

    /// What `resolveRaw` does after the direct path's decision `step`, other than copying or making an instance at
    /// the slot's key: the less common direct steps (`carryOut`) and the general path, with the key built again.
    @inline(never)
    private func resolve(
        after step: DirectStep, _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        var key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        guard case .general = step else { return try carryOut(step, &key, arguments: arguments, into: result) }
        try resolveInGraph(key, arguments: arguments, typed: true, into: result)
    }

    /// Initializes `result` with `instance`, cast to the type of `key`.
    private func unbox(_ instance: Any, as key: DefinitionKey, into result: UnsafeMutableRawPointer) throws {
        func initialize<T>(_: T.Type) -> Bool {
            guard let value = instance as? T else { return false }
            result.assumingMemoryBound(to: T.self).initialize(to: value)
            return true
        }
        guard _openExistential(key.type, do: initialize) else {
            throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
        }
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
        case .createAtSlotKey(let slot, let type):
            try create(directly: slot, type: type, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
        case .createMarkedIn(let owner, let slot, let type, let mark):
            try createMarked(in: owner, slot, type: type, mark: mark, arguments: arguments, into: result)
        case .createMarked(let slot, let type, let mark):
            try createMarked(slot, type: type, mark: mark, arguments: arguments, into: result)
        case .createSingletonAtSlotKey(let slot, let claim):
            try createSingleton(
                directly: slot, claim: claim, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
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

    @usableFromInline
    func resolveAny(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> Any {
        try withUnsafeTemporaryAllocation(of: Any.self, capacity: 1) { buffer in
            guard let storage = buffer.baseAddress else { throw ResolutionError.definitionNotFound(key: key) }
            try resolveInGraph(key, arguments: arguments, typed: false, into: UnsafeMutableRawPointer(storage))
            return storage.move()
        }
    }

    /// The general path: the lookup across containers, in a scope of the resolution graph. With `typed`, `result`
    /// receives the instance as the key's type (an instance that comes through a forwarding registration is cast to
    /// it: `invalidType` if it is not one); otherwise as `Any`.
    @inline(never)
    private func resolveInGraph(
        _ key: DefinitionKey, arguments: UnsafeRawPointer, typed: Bool, into result: UnsafeMutableRawPointer
    ) throws {
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
            return
        case .value(let instance) where typed:
            try unbox(instance, as: key, into: result)
        case .value(let instance):
            result.initializeMemory(as: Any.self, repeating: instance, count: 1)
        }
    }

    @inline(never)
    private func notFound(_ key: DefinitionKey, requiredBy: [DefinitionKey]) -> ResolutionError {
        .definitionNotFound(key: diagnose(key, requiredBy: requiredBy))
    }

    /// Logs the failure of an outermost resolve at `.verbose`: the error is thrown to the caller, who decides
    /// whether it is worth reporting, so the default level stays quiet (inside `try?` too).
    @inline(never)
    func logFailure(_ error: any Error) {
        log(.verbose, "Plexus: \(error)")
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
