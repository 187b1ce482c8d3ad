internal import PlexusCore

// The resolve core: from the public resolves (first, below: where a keyed resolve starts), typed accessors and
// auto-wired arguments to the fast step (decided and carried out below; its type in `FastPath/FastStep.swift`) or the
// general path (`DependencyContainer+Lookup.swift`), inside the calling thread's resolution graph. The public
// resolves live here, beside what they call, so that a reader follows a resolve from its call in one file; the
// async ones are in `Concurrency/DependencyContainer+AsyncResolve.swift`.

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
}

extension DependencyContainer {
    /// Resolves the key of `T`, `typeOfArguments` and `tag` into storage for a `T`: the core copies the instance
    /// straight in (a `T?` answered by `T` is wrapped in place; an instance that comes through a forwarding
    /// registration as `Any` is cast there, out of line). Nothing but the storage lives in the caller's frame while
    /// the core runs the factories below it: inlined, this is the only frame the generic surface adds to a nested
    /// resolve.
    ///
    /// The key is built inside the library: a `DefinitionKey` made and destroyed in the caller's module has its tag
    /// and diagnostics destroyed through generic value witnesses there. For the same reason no `Any?` comes back to
    /// the caller's module: destroying even a `nil` one goes through generic value witnesses too
    /// (`Benchmarks/profile unique/plexus` shows either as a function of its own).
    @inlinable
    @inline(__always)
    func resolveTyped<T>(tag: Tag?, typeOfArguments: Any.Type, arguments: UnsafeRawPointer) throws -> T {
        // The storage is allocated here rather than through `withResolveStorage`: a debug build gives every function
        // and closure between the caller's factory and the core a stack frame of its own, on every level of a
        // nested resolve.
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = resolveStorage(buffer)
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
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = resolveStorage(buffer)
            try resolveRaw(T.self, into: storage)
            return storage.assumingMemoryBound(to: T.self).move()
        }
    }

    /// Resolves a property of `T` under `tag` without arguments, and hands `body` the instance in temporary storage,
    /// destroyed after it returns; leaves `body` uncalled when an optional (not `required`) property's own key is not
    /// registered. For auto-injection.
    ///
    /// Unlike `resolveTyped`, nothing generic over `T` crosses the temporary allocation's closure: the boxes run
    /// unspecialized, where a `T?` or a `Result<T, _>` costs a generic-metadata lookup on every property injected.
    func resolveInjected<T>(
        _: T.Type, tag: Tag?, required: Bool, _ body: (inout T) -> Void
    ) throws {
        do {
            try InstanceStorage.withFilled(T.self, { try resolveProperty(T.self, tag: tag, into: $0) }, body)
        } catch ResolutionError.definitionNotFound(let key) where !required && key.type == T.self && key.tag == tag {
            // An optional property whose own key is not registered stays nil. Any other error (a factory that throws,
            // a cycle, a dependency of its definition missing, even one of the same type under another tag) still
            // propagates.
        }
    }

    /// `resolveInjected(_:tag:required:_:)` handing `store` a copy of the instance.
    func resolveInjected<T>(_: T.Type, tag: Tag?, required: Bool, handingTo store: (T) -> Void) throws {
        try resolveInjected(T.self, tag: tag, required: required) { (value: inout T) in store(value) }
    }

    /// `resolveInjected` for a property whose type is a class (`type is AnyClass`): the instance is one reference,
    /// returned retained without generic code; `nil` when an optional property's own key is not registered.
    func resolveInjectedObject(_ type: Any.Type, tag: Tag?, required: Bool) throws -> Owned<AnyObject>? {
        do {
            // A resolve that returns has written its instance, one reference.
            let reference = try InstanceStorage.filledReference(for: type) {
                try resolveProperty(type, tag: tag, into: $0)
            }
            return Owned(adoptingAddress: UnsafeMutableRawPointer(mutating: reference))
        } catch ResolutionError.definitionNotFound(let key) where !required && key.type == type && key.tag == tag {
            // As in `resolveInjected`: only the property's own key missing leaves an optional property nil.
            return nil
        }
    }

    /// Resolves the key of `type` and `tag` without arguments into `storage`.
    @inline(__always)
    private func resolveProperty(_ type: Any.Type, tag: Tag?, into storage: InstanceStorage) throws {
        // Most properties are untagged: that key is built without a tag to pass around.
        if let tag {
            try resolveRaw(type, typeOfArguments: Void.self, tag: tag, arguments: .none, into: storage)
        } else {
            try resolveRaw(type, into: storage)
        }
    }

    /// The tag of the resolution in progress on the calling thread (`context?.tag`, without building the context);
    /// `nil` outside a resolution.
    var tagInContext: Tag? {
        ResolutionGraph.activeInnermostTag
    }

    /// Uninitialized stack storage for a `T`.
    @inlinable
    @inline(__always)
    func withResolveStorage<T, R>(for type: T.Type, _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { try body(resolveStorage($0)) }
    }

    /// The address of a temporary allocation for one `T`. A zero-sized `T` may get no address: its instance is then
    /// "stored" at `zeroSizedArguments`, whose bytes a zero-sized value never reads or writes.
    @inlinable
    @inline(__always)
    func resolveStorage<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UnsafeMutableRawPointer {
        guard let base = buffer.baseAddress else { return UnsafeMutableRawPointer(mutating: zeroSizedArguments) }
        return UnsafeMutableRawPointer(base)
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
        try resolveRaw(type, into: InstanceStorage(uninitialized: result, for: type))
    }

    /// `resolveRaw(_:into:)` into the core's storage, for the entry above and the engine's own resolves.
    /// Transparent, so that a debug build inlines it into the entry, in this file: no frame more per nested resolve.
    @_transparent
    func resolveRaw(_ type: Any.Type, into result: InstanceStorage) throws {
        let step = GraphRecorder.isActive ? .general : fastStep(untagged: type, into: result)
        let done = try carryOut(step, arguments: .none, into: result) {
            try carryOut(
                $0, requested: type, typeOfArguments: Void.self, tag: nil, arguments: .none,
                into: result)
        }
        if !done {
            try resolveInGraph(
                type, typeOfArguments: Void.self, tag: nil, arguments: .none,
                into: result)
        }
    }

    /// The core of every resolve: finds the key of `type`, `typeOfArguments` and `tag` and produces its instance
    /// inside the calling thread's resolution graph, initializing `result` with it as a `type` (an instance that
    /// comes through a forwarding registration is cast to it).
    ///
    /// Every nested resolve recurses through here, so the work is split into out-of-line steps whose locals are
    /// gone before a factory runs: the key is built and the fast step decided (under a lock, or with the reader
    /// bias) in `fastStep`, and the common case — this container's definition registered under exactly the
    /// requested key — runs the factory with its frame pointing at the key inside the slot. No key lives in
    /// this frame while the factory runs.
    @usableFromInline
    func resolveRaw(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try resolveRaw(
            type, typeOfArguments: typeOfArguments, tag: tag, arguments: ResolveArguments(at: arguments),
            into: InstanceStorage(uninitialized: result, for: type))
    }

    /// `resolveRaw(_:typeOfArguments:tag:arguments:into:)` with the core's arguments and storage, for the entry above
    /// and the engine's own resolves. Transparent, as `resolveRaw(_:into:)` is.
    @_transparent
    func resolveRaw(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws {
        let step =
            GraphRecorder.isActive
            ? .general : fastStep(type, typeOfArguments: typeOfArguments, tag: tag, into: result)
        let done = try carryOut(step, arguments: arguments, into: result) {
            try carryOut(
                $0, requested: type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments,
                into: result)
        }
        if !done {
            try resolveInGraph(
                type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments,
                into: result)
        }
    }

    /// The one dispatcher of the fast path: carries out `step` into `result`. Returns `false` for `.general`, with
    /// `result` untouched; the caller then takes the general path. `requested` runs `make` at the requested key, for
    /// a step whose key lives nowhere else (`KeyHome.requested`); the caller builds that key out of line, so that no
    /// key sits in this frame (inlined into every resolve) while a factory runs.
    ///
    /// Kept in this file, beside `resolveRaw` and `tryFastAccessor`, and transparent: a debug build compiles each
    /// file on its own and inlines a transparent function only into callers in the same file, so that the dispatcher
    /// adds no frame of its own to each level of a nested resolve.
    @_transparent
    func carryOut(
        _ step: consuming FastStep, arguments: ResolveArguments, into result: InstanceStorage,
        requested: (FastMake) throws -> Void
    ) throws -> Bool {
        switch consume step {
        case .copied:
            return true
        case .general:
            return false
        case .make(let make):
            switch make.key {
            case .slot:
                try carryOut(make, at: nil, arguments: arguments, into: result)
            case .kept(let keeper):
                defer { keeper.release() }
                try carryOut(make, at: FastMake.KeyHome.key(keptBy: keeper), arguments: arguments, into: result)
            case .requested:
                try requested(make)
            }
            return true
        }
    }

    /// Carries out `make` at the requested key, built here, out of line.
    @inline(never)
    private func carryOut(
        _ make: FastMake, requested type: Any.Type, typeOfArguments: Any.Type, tag: Tag?,
        arguments: ResolveArguments, into result: InstanceStorage
    ) throws {
        let key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        try carryOut(make, requested: key, arguments: arguments, into: result)
    }

    /// The general path for the key of `type`, `typeOfArguments` and `tag`, built here, out of line.
    @inline(never)
    private func resolveInGraph(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws {
        let key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        try resolveInGraph(key, arguments: arguments, typed: true, into: result)
    }

    /// `resolveRaw(_:typeOfArguments:tag:arguments:into:)` at the top of a segment of an async resolve
    /// (DependencyContainer+AsyncCore.swift): the hand-over, with `result` left uninitialized, when the definition
    /// needs `await`. The fast path never reaches such a definition; the general path's scope may hand it over.
    /// Always inlined into the first attempt of an async resolve (`resolveRawOnThisThread`), which is as cheap as a
    /// synchronous resolve when the fast path answers.
    @usableFromInline
    @inline(__always)
    func resolveRawSegment(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws -> AsyncHandOver? {
        let (arguments, result) = (ResolveArguments(at: arguments), InstanceStorage(uninitialized: result, for: type))
        let step =
            GraphRecorder.isActive
            ? .general : fastStep(type, typeOfArguments: typeOfArguments, tag: tag, into: result)
        let done = try carryOut(step, arguments: arguments, into: result) {
            try carryOut(
                $0, requested: type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments,
                into: result)
        }
        if done { return nil }
        return try resolveInGraphHandingOver(
            type, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: result)
    }

    /// The general path at the top of a segment, for the key of `type`, `typeOfArguments` and `tag`, built here, out
    /// of line.
    @inline(never)
    private func resolveInGraphHandingOver(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws -> AsyncHandOver? {
        let key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        return try resolveInGraphHandingOver(key, arguments: arguments, typed: true, into: result)
    }

    /// `resolveRawSegment(_:typeOfArguments:tag:arguments:into:)` for a `T`: the instance, or the hand-over.
    @inlinable
    func resolveTypedSegment<T>(tag: Tag?, typeOfArguments: Any.Type, arguments: UnsafeRawPointer) throws
        -> SegmentOutcome<T>
    {
        try withResolveStorage(for: T.self) { storage in
            if let handOver = try resolveRawSegment(
                T.self, typeOfArguments: typeOfArguments, tag: tag, arguments: arguments, into: storage)
            {
                return .handOver(handOver)
            }
            return .instance(storage.assumingMemoryBound(to: T.self).move())
        }
    }

    /// Initializes `result` with `instance`, cast to the type of `key`.
    private func unbox(_ instance: Any, as key: DefinitionKey, into result: InstanceStorage) throws {
        func initialize<T>(_: T.Type) -> Bool {
            guard let value = instance as? T else { return false }
            result.initialize(to: value)
            return true
        }
        guard initialize(key.type) else {
            throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
        }
    }

    @usableFromInline
    func resolveAny(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> Any {
        try InstanceStorage.filled(Any.self) { storage in
            try resolveInGraph(key, arguments: ResolveArguments(at: arguments), typed: false, into: storage)
        }
    }

    /// `resolveAny(_:arguments:)` at the top of a segment of an async resolve: the instance, or the hand-over.
    func resolveAnySegment(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> SegmentOutcome<Any> {
        var handOver: AsyncHandOver?
        let instance = try InstanceStorage.filledIfWritten(Any.self) { storage in
            handOver = try resolveInGraphHandingOver(
                key, arguments: ResolveArguments(at: arguments), typed: false, into: storage)
            return handOver == nil
        }
        if let instance { return .instance(instance) }
        guard let handOver else {
            preconditionFailure("Plexus: a segment delivered neither an instance nor a hand-over")
        }
        return .handOver(handOver)
    }

    /// The general path: the lookup across containers, in a scope of the resolution graph. With `typed`, `result`
    /// receives the instance as the key's type (an instance that comes through a forwarding registration is cast to
    /// it: `invalidType` if it is not one); otherwise as `Any`.
    @inline(never)
    private func resolveInGraph(
        _ key: DefinitionKey, arguments: ResolveArguments, typed: Bool, into result: InstanceStorage
    ) throws {
        let typedResult = typed ? result : nil
        let delivery = try inGraph(into: typedResult) { graph in
            var search = Search(key)
            if let delivery = try find(&search, arguments: .given(arguments), into: typedResult, graph: graph) {
                return delivery
            }
            // The "required by" chain is what the graph is making right now, innermost first.
            throw notFound(key, requiredBy: graph.dependentKeys.reversed())
        }
        if let handOver = try deliver(delivery, of: key, typed: typed, into: result) {
            // Only a segment's entry (`resolveInGraphHandingOver`) lets its scope hand over.
            throw handOver.refused()
        }
    }

    /// `resolveInGraph(_:arguments:typed:into:)` at the top of a segment of an async resolve: the hand-over, with
    /// `result` left uninitialized, when the definition needs `await`.
    private func resolveInGraphHandingOver(
        _ key: DefinitionKey, arguments: ResolveArguments, typed: Bool, into result: InstanceStorage
    ) throws -> AsyncHandOver? {
        let typedResult = typed ? result : nil
        let delivery = try inGraphHandingOver(into: typedResult) { graph in
            var search = Search(key)
            if let delivery = try find(&search, arguments: .given(arguments), into: typedResult, graph: graph) {
                return delivery
            }
            throw notFound(key, requiredBy: graph.dependentKeys.reversed())
        }
        return try deliver(delivery, of: key, typed: typed, into: result)
    }

    /// Puts what the general path delivered for `key` into `result` (as the key's type with `typed`, else as `Any`),
    /// unless it is a hand-over, which it returns. Called once the graph's scope has closed: no frame of it stays on
    /// the stack of a nested resolve.
    private func deliver(
        _ delivery: Delivery, of key: DefinitionKey, typed: Bool, into result: InstanceStorage
    ) throws -> AsyncHandOver? {
        switch delivery {
        case .typed:
            return nil
        case .value(let instance) where typed:
            try unbox(instance, as: key, into: result)
        case .value(let instance):
            // Coerced, so that the existential is stored as itself rather than opened to the type it holds.
            result.initialize(to: instance as Any)
        case .handOver(let handOver):
            return handOver
        }
        return nil
    }

    @inline(never)
    private func notFound(_ key: DefinitionKey, requiredBy: [DefinitionKey]) -> ResolutionError {
        .definitionNotFound(key: diagnose(key, requiredBy: requiredBy))
    }

    /// Logs the failure of a resolve at `.verbose`: the error is thrown to the caller, who decides whether it is
    /// worth reporting, so the default level stays quiet (inside `try?` too). A resolve inside a factory logs its
    /// failure as an outermost one does, since the factory may catch it (`try?`) and no outer resolve would see it;
    /// the resolves it then propagates through do not log it again. `validate` reports its failures itself.
    @inline(never)
    func logFailure(_ error: any Error, in graph: ResolutionGraph) {
        guard graph.depth == 0 || graph.recorder == nil, isLogging(.verbose) else { return }
        let description = "\(error)"
        // At depth 0 the session has just advanced: the nested resolves of this one logged under the previous one.
        let session = graph.depth == 0 ? graph.session &- 1 : graph.session
        if let logged = graph.loggedFailure, logged.session == session, logged.description == description {
            if graph.depth == 0 { graph.loggedFailure = nil }
            return
        }
        graph.loggedFailure = graph.depth == 0 ? nil : (session, description)
        log(.verbose, "Plexus: \(description)")
    }

    /// How an instance was handed over.
    enum Delivery {
        /// Copied into the caller's storage, a value the `TypeOps` describe.
        case typed(TypeOps)
        /// Returned as `Any`.
        case value(Any)
        /// Not made: the definition needs `await`, and the async resolve whose segment this scope is takes over
        /// (Slot+Isolation.swift). Only in the scope a segment's entry opened (`ResolutionGraph.handingOver`).
        case handOver(AsyncHandOver)
    }

    /// Runs `body` as one `resolve` call: a scope of the calling thread's resolution graph (ResolutionGraph+Scopes).
    /// The scope owns what is created inside it; when `body` succeeds it finishes or hands over that work, and when
    /// `body` (or finishing) throws, it drops that work. If finishing fails after the instance was copied into
    /// `result`, the instance is destroyed again.
    // `logsFailure` lets `validate` log (or ignore) failures itself.
    func inGraph(
        into result: InstanceStorage? = nil, logsFailure: Bool = true,
        _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        try ResolutionGraph.unretainedCurrent.with { graph in
            try inGraph(graph, into: result, logsFailure: logsFailure, handsOver: false, body)
        }
    }

    /// `inGraph(into:logsFailure:_:)` for the resolve at the top of a segment of an async resolve (Concurrency/):
    /// a definition that needs `await` comes back as `.handOver`, its scope ended with nothing made in it.
    func inGraphHandingOver(
        into result: InstanceStorage? = nil, logsFailure: Bool = true,
        _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        try ResolutionGraph.unretainedCurrent.with { graph in
            try graph.handingOver {
                try inGraph(graph, into: result, logsFailure: logsFailure, handsOver: true, body)
            }
        }
    }

    /// `inGraph(into:logsFailure:_:)` in the calling thread's `graph`, borrowed. `handsOver` (a constant at each call
    /// site, folded away where it is `false`) for the scope at the top of a segment of an async resolve, whose body may
    /// deliver a hand-over: matching the delivery copies it, which every other resolve would pay for.
    @inline(__always)
    private func inGraph(
        _ graph: ResolutionGraph, into result: InstanceStorage?, logsFailure: Bool, handsOver: Bool,
        _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        graph.openScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            let delivery = try body(graph)
            if handsOver, case .handOver = delivery {
                // No failure: the async resolve takes the definition over, in a scope of its own.
                graph.abandonScope(after: nil)
                return delivery
            }
            do {
                try graph.closeScope()
            } catch {
                if case .typed(let ops) = delivery, let result { ops.destroy(result) }
                throw error
            }
            return delivery
        } catch {
            graph.abandonScope(after: error)
            if logsFailure { logFailure(error, in: graph) }
            throw error
        }
    }
}

// MARK: - The container a factory is handed

extension DependencyContainer {
    /// Calls `body` with the container whose definition's factory is running on this thread: the container a factory
    /// registered with `register { c in … }` is handed. The engine names it in the factory's frame
    /// (`ResolutionGraph.enterFactory`), so the factory captures nothing and no reference is counted: the container is
    /// alive while its factory runs. A definition registered in several containers gets the one it runs in.
    /// - Throws: ``ResolutionError/definitionNotFound(key:)`` for the key of `type` and `tag` if no factory runs (not
    ///   reached: only the engine calls factories).
    @inlinable
    static func withRunningFactoryOwner<R>(
        _ type: Any.Type, tag: Tag?, _ body: (DependencyContainer) throws -> R
    ) throws -> R {
        guard let owner = unmanagedRunningFactoryOwner() else { throw noRunningFactory(type, tag: tag) }
        return try owner._withUnsafeGuaranteedRef(body)
    }

    /// `withRunningFactoryOwner(_:tag:_:)` for a `@MainActor` factory: the container, retained for as long as the
    /// factory keeps it. In place on the main thread the factory's frame is the thread graph's innermost; reached by a
    /// hop, the resolve's graph is installed on the main thread while the factory runs (`FactoryIsolation`).
    @usableFromInline
    static func runningMainActorFactoryOwner(_ type: Any.Type, tag: Tag?) throws -> DependencyContainer {
        guard let owner = runningFactoryOwner() else { throw noRunningFactory(type, tag: tag) }
        return owner.object
    }

    /// `withRunningFactoryOwner(_:tag:_:)` for an `async` factory: the container, retained for as long as the factory
    /// keeps it. An async factory always runs in its task's graph (`constructAsync` enters its frame there), which is
    /// read from the task, whatever thread the factory starts on; read before its first suspension point, while its
    /// frame is the innermost.
    @usableFromInline
    static func runningAsyncFactoryOwner(_ type: Any.Type, tag: Tag?) throws -> DependencyContainer {
        let owner = TaskGraph.graphOfCurrentTask().map { $0.state.frames.last?.owner } ?? runningFactoryOwner()
        guard let owner else { throw noRunningFactory(type, tag: tag) }
        return owner.object
    }

    /// The owner named by the innermost frame of this thread's (or its task's) graph, if that frame is a factory's.
    static func runningFactoryOwner() -> Borrowed<DependencyContainer>? {
        ResolutionGraph.unretainedCurrent.with { $0.state.frames.last?.owner }
    }

    /// `runningFactoryOwner()` for `withRunningFactoryOwner`, the same word unretained: inlinable code can name no
    /// type of the core, so this one `Unmanaged` crosses into it (the factory's frame keeps the owner, as there).
    @usableFromInline
    static func unmanagedRunningFactoryOwner() -> Unmanaged<DependencyContainer>? {
        runningFactoryOwner()?.with { Unmanaged.passUnretained($0) }
    }

    /// The decorators of `key` in the container whose factory runs innermost on this thread, if any: what a factory
    /// that decorates its instances itself applies (`Blueprint.decoratesItself`).
    static func runningFactoryDecorators(of key: DefinitionKey) -> Decorators? {
        runningFactoryOwner()?.with { owner in
            owner.registry.withLockKeepingReaders { $0.pointee.decorators[key] }
        }
    }

    @usableFromInline
    static func noRunningFactory(_ type: Any.Type, tag: Tag?) -> ResolutionError {
        .definitionNotFound(key: DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag))
    }
}

// Carrying a fast step out, beside `carryOut`, which calls it: the slot and owner held, then the factory's run inside the
// calling thread's graph (`constructInCurrentGraph`, in Graph/ResolutionGraph.swift beside the factory's frame).
extension DependencyContainer {
    /// Runs the factory of `make`'s slot into `result`, with the frame's key at `key` (the slot's own copy when
    /// `nil`), in the owner `make` names and the calling thread's graph; then ends the step's hold on the slot and
    /// the owner (also when the factory throws). Transparent, and in the file of `carryOut` and `resolveRaw`: a debug
    /// build inlines it into them, one frame less per level of a nested resolve.
    @_transparent
    func carryOut(
        _ make: FastMake, at key: Pinned<DefinitionKey>?, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws {
        defer {
            if make.mark >= 0 { HazardMarks.clear(make.mark) } else { Owned(adopting: make.slot).release() }
            make.owner?.release()
        }
        try make.slot.with { slot in
            let key = key ?? slot.pinnedKey
            // The container that owns the slot makes the instance: a collaborator's is retained for the step.
            guard let owner = make.owner else {
                return try constructInCurrentGraph(slot, make.making, at: key, arguments: arguments, into: result)
            }
            try owner.with {
                try $0.constructInCurrentGraph(slot, make.making, at: key, arguments: arguments, into: result)
            }
        }
    }

    /// Carries out `make` at the requested `key`: for a `T?` answered by `T` (`wraps`), at `T`'s key, as the
    /// general path does, and the instance made as a `T` is then wrapped in place. Out of line, with the key in its
    /// own frame.
    @inline(never)
    func carryOut(
        _ make: FastMake, requested key: DefinitionKey, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws {
        guard make.wraps else {
            return try Pinned.with(key) { try carryOut(make, at: $0, arguments: arguments, into: result) }
        }
        // Taken while the step holds the slot, which `carryOut` ends.
        let blueprint = make.slot.with { $0.blueprint }
        try Pinned.with(key.with(type: blueprint.type)) {
            try carryOut(make, at: $0, arguments: arguments, into: result)
        }
        blueprint.ops.wrapInOptional(result)
    }
}

// A typed accessor's fast entry, beside `carryOut` (transparent: a debug build inlines it only into callers in this
// file), and the decision of its step (`readStep`, `lockedStep`, `writeLockedStep`, `accessorStep`) below it; which
// slot answers is remembered by `answer` (`FastPath/FastStep+Accessors.swift`).
extension DependencyContainer {
    /// The common accessor resolves, not generic: a published singleton copied into `result`, or a new instance made
    /// by the fast path there (one with property work, such as a `resolvingProperties` hook, stored as for a requested
    /// key, which queues that work). `false` (with `result` untouched) when the accessor needs
    /// `resolveAccessor(_:arguments:onMainActor:declared:)`: first use, an override elsewhere, `@MainActor` hooks off
    /// the main thread, decorators, or a recording `validate`.
    ///
    /// An accessor used here before, whose answer is still current, is read without the lock while no write is in
    /// progress (the reader bias), else under the lock without stopping those readers (a locked read, which turns the
    /// bias back on after a while); only a first use or a stale answer takes the lock for writing.
    @usableFromInline
    func tryFastAccessor(_ site: AccessorSite, into result: UnsafeMutableRawPointer) throws -> Bool {
        try fastAccessor(
            site, arguments: .none, onMainActor: false, into: InstanceStorage(uninitialized: result, for: nil))
    }

    /// `tryFastAccessor(_:into:)` for an accessor taking a runtime argument (a ``ParameterFactory``), at
    /// `arguments`: its site's key names the argument type, so the slot that answers takes exactly that type.
    ///
    /// With `onMainActor` (a ``MainActorFactory`` called on the main actor) a `@MainActor` factory runs here too, in
    /// place, as the general path runs it on the main thread.
    @usableFromInline
    func tryFastAccessor(
        _ site: AccessorSite, arguments: UnsafeRawPointer, onMainActor: Bool = false,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        // Only callers isolated to the main actor pass `onMainActor`: it runs a `@MainActor` factory in place.
        assert(!onMainActor || isMainThread, "onMainActor passed off the main thread")
        return try fastAccessor(
            site, arguments: ResolveArguments(at: arguments), onMainActor: onMainActor,
            into: InstanceStorage(uninitialized: result, for: nil))
    }

    /// `tryFastAccessor(_:arguments:onMainActor:into:)` with the core's arguments and storage, for the engine's own
    /// calls.
    func tryFastAccessor(
        _ site: AccessorSite, arguments: ResolveArguments, onMainActor: Bool, into result: InstanceStorage
    ) throws -> Bool {
        assert(!onMainActor || isMainThread, "onMainActor passed off the main thread")
        return try fastAccessor(site, arguments: arguments, onMainActor: onMainActor, into: result)
    }

    /// The body of the `tryFastAccessor` entries, inlined into each: a call more costs the singleton hit
    /// of `Benchmarks/profile accessor-singleton/plexus` a measurable share.
    @_transparent
    private func fastAccessor(
        _ site: AccessorSite, arguments: ResolveArguments, onMainActor: Bool, into result: InstanceStorage
    ) throws -> Bool {
        // Graph report: while `validate` records on any thread, accessors take the general path, where the accessor
        // and its edges are noted (as `resolveRaw` leaves the fast path).
        if GraphRecorder.isActive { return false }
        // A `switch` rather than `??`: each `??` is a call with an autoclosure in a debug build, in the frame of
        // every nested accessor resolve.
        let step: FastStep
        switch registry.withBiasedRead({ readStep(site, in: $0, onMainActor, locked: false, into: result) }) {
        case .some(.some(let biased)): step = biased
        default: step = lockedStep(site, onMainActor, into: result)
        }
        // An accessor's step keeps its key at the slot or the entry, never as a requested key.
        return try carryOut(step, arguments: arguments, into: result) {
            try carryOut($0, at: nil, arguments: arguments, into: result)
        }
    }

    /// `tryFastAccessor(_:into:)` for a ``MainActorFactory`` called on the main actor, where its `@MainActor`
    /// factory (or an override's) runs in place.
    @usableFromInline
    @MainActor
    func tryFastMainActorAccessor(_ site: AccessorSite, into result: UnsafeMutableRawPointer) throws -> Bool {
        try fastAccessor(
            site, arguments: .none, onMainActor: true, into: InstanceStorage(uninitialized: result, for: nil))
    }

    /// What `tryFastAccessor(_:into:)` can decide by reading only: an accessor used here before whose answering slot
    /// is still current (`AccessorKeys.Entry.answering`), or one never used here, which only the general path (or
    /// the registration of its declared default) answers; `nil` otherwise. Reads without the lock are safe: the
    /// entry's answer and the slot are only changed under the lock for writing (`withLock`), which waits for them,
    /// and a stale answer is seen as stale (see `Route`).
    func readStep(
        _ site: AccessorSite, in registry: UnsafePointer<Registry>, _ onMainActor: Bool, locked: Bool,
        into result: InstanceStorage
    ) -> FastStep? {
        guard let keys = registry.pointer(to: \.accessorKeys) else { return nil }
        // A first use here: taking the lock for writing would find no entry either.
        guard let found = AccessorKeys.withExistingEntry(in: keys, for: site, { Borrowed($0) })
        else { return .general }
        return found.with { entry -> FastStep? in
            guard let answering = entry.currentAnswer(at: generation.current) else { return nil }
            return answering.with { slot -> FastStep? in
                if slot.copyPublished(into: result) { return .copied }
                return accessorStep(answering, entry: found, hasKey: entry.answeringHasKey, onMainActor, locked: locked)
            }
        }
    }

    /// `tryFastAccessor(_:into:)` when the reader bias is off or does not suffice: under the lock without stopping
    /// readers, else under the lock for writing. Out of line: in a debug build, the steps of each way would sit in
    /// the frame of every nested accessor resolve.
    ///
    /// An accessor that a collaborator's override answered last time (`AccessorKeys.Entry.routed`) is read here too,
    /// without the lock while the bias allows, and followed under the collaborator's reader bias or lock
    /// (`accessorStep(through:…)`), as a remembered route is.
    @inline(never)
    func lockedStep(_ site: AccessorSite, _ onMainActor: Bool, into result: InstanceStorage) -> FastStep {
        if case .some(.some(let routed)) = registry.withBiasedRead({ routedAnswer(site, in: $0) }) {
            return accessorStep(through: routed, onMainActor, into: result)
        }
        var routed: RoutedSlot?
        if let locked = registry.withLockKeepingReaders({ registry -> FastStep? in
            if let step = readStep(site, in: registry, onMainActor, locked: true, into: result) { return step }
            routed = routedAnswer(site, in: registry)
            return nil
        }) {
            return locked
        }
        if let routed { return accessorStep(through: routed, onMainActor, into: result) }
        return writeLockedStep(site, onMainActor, into: result)
    }

    /// The collaborator's slot that answered the accessor at `site` last time, if that answer is current and its
    /// owner alive (the owner retained once, as for a route). Call under the lock or the reader bias.
    private func routedAnswer(_ site: AccessorSite, in registry: UnsafePointer<Registry>) -> RoutedSlot? {
        guard let keys = registry.pointer(to: \.accessorKeys) else { return nil }
        return AccessorKeys.withExistingEntry(in: keys, for: site) { RoutedSlot(answering: $0, epoch: generation) }
            ?? nil
    }

    /// `tryFastAccessor(_:into:)` under the lock for writing: a first use, or an answer to find again.
    private func writeLockedStep(
        _ site: AccessorSite, _ onMainActor: Bool, into result: InstanceStorage
    ) -> FastStep {
        registry.withLock { registry -> FastStep in
            // The entry stays in the table while the lock is held.
            guard let found = registry.accessorKeys.withExistingEntry(for: site, { Borrowed($0) })
            else { return .general }
            return found.with { entry -> FastStep in
                guard case .slot(let answering) = answer(entry, in: &registry) else { return .general }
                return answering.with { slot -> FastStep in
                    // Copying a value runs no user code, so it may happen under the lock.
                    if slot.copyPublished(into: result) { return .copied }
                    return accessorStep(
                        answering, entry: found, hasKey: entry.answeringHasKey, onMainActor, locked: true)
                        ?? .general
                }
            }
        }
    }

    /// The step for an answering slot without a published instance: a new instance on the fast path, at the slot's
    /// key (`hasKey`: registered under exactly the accessor's key) or the entry's, or the general path. A
    /// singleton's first construction is claimed as for a requested key, only with `locked` (`nil` without it):
    /// then a graph of singleton accessors built for the first time recurses through the fast path, whose frames
    /// are several times smaller than the general path's. Out of line, so that the common singleton read stays
    /// small. Call under the lock (`locked`) or the reader bias.
    @inline(never)
    func accessorStep(
        _ answering: Borrowed<Slot>, entry: Borrowed<AccessorKeys.Entry>, hasKey: Bool, _ onMainActor: Bool,
        locked: Bool
    ) -> FastStep? {
        answering.with { slot -> FastStep? in
            guard let type = fastType(for: slot, onMainActor: onMainActor) else {
                guard locked else { return nil }
                let key = entry.with { $0.key }
                guard let claim = claimSingleton(slot, requested: key) else { return .general }
                return .make(
                    FastMake(
                        slot: Owned(retaining: slot).borrowed, mark: -1, making: .singleton(Owned(retaining: claim)),
                        owner: nil, key: hasKey ? .slot : .kept(by: entry), wraps: false))
            }
            let keyHome: FastMake.KeyHome = hasKey ? .slot : .kept(by: entry)
            return .make(
                FastMake(
                    slot: answering, mark: mark(slot, at: keyHome), making: plainMaking(for: slot, type), owner: nil,
                    key: keyHome, wraps: false))
        }
    }

    /// The fast step at the collaborator's slot that answered a typed accessor last time (`RoutedSlot(answering:)`),
    /// under the collaborator's reader bias when it allows and the step needs no lock, else under its lock, as
    /// `fastStep(through:…)` follows a route. The slot is registered under exactly the accessor's key, so the step
    /// keeps its key at the slot. The owner's reference goes on with `.make`, and is released otherwise.
    private func accessorStep(
        through routed: RoutedSlot, _ onMainActor: Bool, into result: InstanceStorage
    ) -> FastStep {
        step(through: routed) { slot, locked in
            accessorStep(at: slot, owner: routed.owner, onMainActor, locked: locked, into: result)
        }
    }

    /// The step at a collaborator's slot registered under exactly a typed accessor's key, whose reference to
    /// `owner` the step keeps: the published singleton copied, else as `accessorStep(_:entry:…)` decides for a slot
    /// of this container at its own key. Call under the owner's lock (`locked`) or reader bias.
    private func accessorStep(
        at slot: Slot, owner: Owned<DependencyContainer>, _ onMainActor: Bool, locked: Bool,
        into result: InstanceStorage
    ) -> FastStep? {
        // Copying a value runs no user code (a retain at most), so it may happen under the lock.
        if slot.copyPublished(into: result) { return .copied }
        guard let type = fastType(for: slot, onMainActor: onMainActor) else {
            guard locked else { return nil }
            guard let claim = claimSingleton(slot, requested: slot.key) else { return .general }
            return .make(
                FastMake(
                    slot: Owned(retaining: slot).borrowed, mark: -1, making: .singleton(Owned(retaining: claim)),
                    owner: owner, key: .slot, wraps: false))
        }
        return .make(
            FastMake(
                slot: Borrowed(slot), mark: mark(slot, at: .slot), making: plainMaking(for: slot, type),
                owner: owner, key: .slot, wraps: false))
    }
}

// Deciding the fast step for a requested key: this container's slot under exactly the key, or where a route
// remembered for the key leads (a collaborator's slot, this container's `T` for a `T?`, or its definition that
// auto-wires the request). Read without the lock while the reader bias allows, else under the lock.

extension DependencyContainer {
    /// How the slot a step reads was reached, besides the requested key.
    struct SlotPlace {
        /// The slot's container, retained once for the step; `nil` for this container.
        var owner: Owned<DependencyContainer>?
        /// A `T?` request answered by the slot of `T`.
        var wraps = false
        /// This container's slot whose factory takes arguments, answering a request without them by auto-wiring.
        var autoWires = false
        /// The local route that leads here, which keeps the requested key (not retained: read under the lock or
        /// the reader bias of the container that keeps it).
        var route: Borrowed<RememberedRoute>?

        static var here: SlotPlace { SlotPlace() }
    }

    /// The fast step for `key`. Reads the container's own definition under the exact key, or where a route
    /// remembered for the key leads, without the lock while no write is in progress (`Protected.withBiasedRead`):
    /// threads resolving then write no memory they share but the reference counts of what they resolve. A route to a
    /// collaborator's slot is followed after, under the collaborator's own reader bias or lock.
    @inline(__always)
    func fastStep(for key: DefinitionKey, into result: InstanceStorage) -> FastStep {
        var routed: RoutedSlot?
        let biased = registry.withBiasedRead { registry -> FastStep? in
            guard let slots = registry.pointer(to: \.slots) else { return nil }
            // A slot under the key that needs the lock (`nil`) goes to `lockedStep`; no slot, to the routes.
            if let step = KeyTable.withBorrowedValue(
                in: slots, for: key,
                {
                    fastStep(at: $0, for: key, .here, locked: false, into: result)
                })
            {
                return step
            }
            guard let routes = registry.pointer(to: \.routes) else { return nil }
            return KeyTable.withBorrowedValue(in: routes, for: key) { route -> FastStep? in
                guard route.isLocal else {
                    routed = RoutedSlot(route, epoch: generation)
                    return nil
                }
                guard let (slot, place) = localSlot(of: route) else { return nil }
                return fastStep(at: slot, for: key, place, locked: false, into: result)
            } ?? nil
        }
        if let step = biased ?? nil { return step }
        if let routed { return fastStep(through: routed, key, into: result) }
        return lockedStep(for: key, into: result)
    }

    /// The fast step for the untagged key of `type` without arguments (`fastStep(for:into:)`). Out of line: the key
    /// is gone from the stack before a factory runs.
    @inline(never)
    func fastStep(untagged type: Any.Type, into result: InstanceStorage) -> FastStep {
        fastStep(for: DefinitionKey(type: type, typeOfArguments: Void.self, tag: nil), into: result)
    }

    /// The fast step for the key of `type`, `typeOfArguments` and `tag` (`fastStep(for:into:)`). Out of line: the
    /// key is gone from the stack before a factory runs.
    @inline(never)
    func fastStep(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, into result: InstanceStorage
    ) -> FastStep {
        fastStep(for: DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag), into: result)
    }

    /// `fastStep(for:into:)` under the lock, reading the registry in place (readers without the lock may be reading
    /// it too); what it changes (a singleton's claim) is nothing they read.
    private func lockedStep(for key: DefinitionKey, into result: InstanceStorage) -> FastStep {
        var routed: RoutedSlot?
        var unknown = false
        let step = registry.withLockKeepingReaders { registry -> FastStep in
            guard let slots = registry.pointer(to: \.slots), let routes = registry.pointer(to: \.routes) else {
                return .general
            }
            if let step = KeyTable.withBorrowedValue(
                in: slots, for: key,
                {
                    fastStep(at: $0, for: key, .here, locked: true, into: result)
                })
            {
                return step ?? .general
            }
            // The route's fields are read in place; its slot is only touched under its owner's lock (below, or here
            // for a local route: this lock).
            let step = KeyTable.withBorrowedValue(in: routes, for: key) { route -> FastStep in
                guard route.isLocal else {
                    routed = RoutedSlot(route, epoch: generation)
                    return .general
                }
                guard let (slot, place) = localSlot(of: route) else { return .general }
                return fastStep(at: slot, for: key, place, locked: true, into: result) ?? .general
            }
            unknown = step == nil
            return step ?? .general
        }
        // Neither a slot nor a route: the first request of a key this container may auto-wire.
        if unknown, key.typeOfArguments == Void.self { return autoWiringStep(for: key, into: result) }
        guard let routed else { return step }
        return fastStep(through: routed, key, into: result)
    }

    /// The fast step for a key that nothing here is registered under and no route is remembered for, when one of
    /// this container's definitions answers it by auto-wiring exactly as the general path's lookup would (no
    /// definition found first, no untagged fallback, no ambiguity, no forwarding): the route is remembered, as that
    /// lookup remembers it, and the step made from it. So a chain of auto-wired definitions resolved for the first
    /// time recurses through the fast path, as later resolves do. Anything else is `.general`, which decides it.
    @inline(never)
    private func autoWiringStep(for key: DefinitionKey, into result: InstanceStorage) -> FastStep {
        // A `T?` is answered by `T`'s definition first.
        guard !isDefaultsOnly, !(key.type is any OptionalType.Type) else { return .general }
        // Decided by reading, without turning the readers' bias off, for every later request of a key the general
        // path answers (a fallback, a forwarding, a key auto-wiring was tried for): only a first request writes.
        let decided = registry.withLockKeepingReaders { registry -> Bool in
            if Registry.find(key, inheritsTag: true, in: registry) != nil || Registry.isAccessorKey(key, in: registry) {
                return true
            }
            guard let remembered = Registry.rememberedAutoWiringCandidate(for: key, in: registry) else { return false }
            // Auto-wiring found nothing, or what the fast path does not take.
            return remembered.map { $0.forward != nil || $0.fellBackToUntagged } ?? true
        }
        if decided { return .general }
        return registry.withLock { registry -> FastStep in
            // Nothing found even with a tag passed down, which falls back in strict mode too: the general path would
            // auto-wire the same definition whether or not the tag is passed down.
            guard registry.find(key, inheritsTag: true) == nil, registry.routes[key] == nil,
                !registry.isAccessorKey(key), let found = try? registry.autoWiringCandidate(for: key),
                found.forward == nil, !found.fellBackToUntagged
            else { return .general }
            guard let route = registry.remember(local: found, key, key, autoWires: true) else { return .general }
            let place = SlotPlace(autoWires: true, route: Borrowed(route))
            return fastStep(at: found.slot, for: key, place, locked: true, into: result) ?? .general
        }
    }

    /// The slot of this container that a local route leads to, and how (a `T?` answered by `T`, or auto-wiring), if
    /// the route is current and leads where the fast path can go. Call under the lock or the reader bias: the
    /// route's slot is current while the generation is, since a removal advances it under this registry's lock.
    private func localSlot(of route: RememberedRoute) -> (Slot, SlotPlace)? {
        guard route.generation == generation.current, route.forward == nil,
            let slot = Route.slot(route.slot, ifCurrentAt: route.generation, of: generation)
        else { return nil }
        return (
            slot,
            SlotPlace(
                owner: nil, wraps: route.wrapsInOptional, autoWires: route.autoWires, route: Borrowed(route))
        )
    }

    /// A remembered route to a collaborator's slot, read where the route is kept: the owner is retained once (the
    /// route holds it weakly), and the slot may only be touched under the owner's lock or reader bias once
    /// `generation` has been checked there (see `Route`).
    struct RoutedSlot {
        let owner: Owned<DependencyContainer>
        let slot: Borrowed<Slot>
        let generation: Int
        let wraps: Bool

        /// The route's target, if the route is current and leads where the fast path can go (no forwarding
        /// registration, no auto-wiring) and its owner is still alive.
        init?(_ route: RememberedRoute, epoch: Epoch.Reader) {
            guard route.generation == epoch.current, route.forward == nil, !route.autoWires,
                let owner = route.retainedOwner()
            else { return nil }
            (self.owner, slot, generation, wraps) = (owner, route.slot, route.generation, route.wrapsInOptional)
        }

        /// The collaborator's slot that answered a typed accessor's `entry` (`AccessorKeys.Entry.routed`), if that
        /// answer is current and its owner still alive.
        init?(answering entry: AccessorKeys.Entry, epoch: Epoch.Reader) {
            guard entry.generation == epoch.current, let slot = entry.routed,
                let owner = entry.retainedRoutedOwner()
            else { return nil }
            (self.owner, self.slot, generation, wraps) = (owner, slot, entry.generation, false)
        }
    }

    /// The fast step at a collaborator's slot: under the collaborator's reader bias when it allows and the step needs
    /// no lock, else under its lock. The owner's reference goes on with `.make`, and is released otherwise.
    private func fastStep(
        through routed: RoutedSlot, _ key: DefinitionKey, into result: InstanceStorage
    ) -> FastStep {
        let place = SlotPlace(owner: routed.owner, wraps: routed.wraps)
        return step(through: routed) { slot, locked in
            fastStep(at: slot, for: key, place, locked: locked, into: result)
        }
    }

    /// The step `decide` gives at the collaborator's slot `routed` leads to, deciding under the collaborator's reader
    /// bias (`locked` false) when it allows and the step needs no lock, else under its lock; `.general` when the route
    /// is no longer current. The owner's reference goes on with `.make`, and is released otherwise. Shared by a
    /// requested key's route (`fastStep(through:…)`) and a typed accessor's collaborator answer
    /// (`accessorStep(through:…)`); always inlined, so that `decide` is no closure at run time.
    @inline(__always)
    private func step(through routed: RoutedSlot, _ decide: (Slot, _ locked: Bool) -> FastStep?) -> FastStep {
        let step = routed.owner.with { owner in
            // The slot is current under the owner's bias or lock while the generation is (see `Route`).
            let biased = owner.registry.withBiasedRead { _ -> FastStep? in
                Route.slot(routed.slot, ifCurrentAt: routed.generation, of: generation).flatMap { decide($0, false) }
            }
            if let step = biased ?? nil { return step }
            return owner.registry.withLockKeepingReaders { _ in
                Route.slot(routed.slot, ifCurrentAt: routed.generation, of: generation).flatMap { decide($0, true) }
                    ?? .general
            }
        }
        if case .make = step { return step }
        routed.owner.release()
        return step
    }

    /// The fast step at `slot`, reached for `key` as `place` says: copy the published singleton, or make an
    /// instance (a singleton's first construction only with `locked`, since claiming it needs the owner's lock).
    /// `nil` when the answer needs the lock and it is not held; `.general` for anything the fast path does not do.
    /// Call under the lock of the slot's owner, or its reader bias.
    func fastStep(
        at slot: Slot, for key: DefinitionKey, _ place: SlotPlace, locked: Bool, into result: InstanceStorage
    ) -> FastStep? {
        // Copying a value runs no user code (a retain at most), so it may happen under the lock.
        if slot.copyPublished(into: result) {
            if place.wraps { slot.blueprint.ops.wrapInOptional(result) }
            return .copied
        }
        let atSlotKey = slot.pinnedKey.value == key
        guard let type = fastType(for: slot) else {
            guard locked else { return nil }
            guard !place.wraps, !place.autoWires, let claim = claimSingleton(slot, requested: key) else {
                return .general
            }
            return .make(
                FastMake(
                    slot: Owned(retaining: slot).borrowed, mark: -1, making: .singleton(Owned(retaining: claim)),
                    owner: place.owner, key: atSlotKey ? .slot : .requested, wraps: false))
        }
        if place.autoWires {
            guard slot.blueprint.autoWire != nil else { return locked ? .general : nil }
            // The frame's key is the one the route keeps, retained for the step, rather than one built again.
            return .make(
                FastMake(
                    slot: Owned(retaining: slot).borrowed, mark: -1, making: .autoWired(expecting: type),
                    owner: place.owner,
                    key: place.route.map { .kept(by: $0) } ?? .requested, wraps: false))
        }
        let keyHome: FastMake.KeyHome = atSlotKey && !place.wraps ? .slot : .requested
        return .make(
            FastMake(
                slot: Borrowed(slot), mark: mark(slot, at: keyHome), making: plainMaking(for: slot, type),
                owner: place.owner, key: keyHome, wraps: place.wraps))
    }

    /// How a step keeps `slot` alive (`FastMake.mark`): the calling thread's hazard mark for a slot whose factory runs
    /// at its own key, instead of a reference (an atomic increment and decrement); `-1` after retaining the slot once
    /// for anything else, or on a thread out of marks. Call under the owner's lock or reader bias.
    @inline(__always)
    func mark(_ slot: Slot, at keyHome: FastMake.KeyHome) -> Int {
        if case .slot = keyHome {
            let mark = HazardMarks.mark(slot)
            if mark >= 0 { return mark }
        }
        _ = Owned(retaining: slot)
        return -1
    }

    /// The type `FastMake.Making.plain` expects of a slot with no published instance, or `nil` for anything the
    /// fast path cannot make without the lock: a `.unique` or `.shared` definition without decorators or
    /// `@MainActor` hooks. An instance that needs property work (the definition's hooks, `Resolvable`, `@Injected`)
    /// is stored as the general path stores it (`ToStore`), which queues that work for the end of its scope, so a
    /// property's nested resolve finds the reader bias still on. Before its first instance the slot knows nothing:
    /// the fast path then learns the instance's type after the factory returned (`finishFast`), as it does whenever
    /// the dynamic type changes. A `@MainActor` factory qualifies only `onMainActor`: for a caller isolated to the main actor,
    /// which runs it in place as the general path would. Call under the owner's lock or reader bias.
    @inline(__always)
    func fastType(for slot: Slot, onMainActor: Bool = false) -> ObjectIdentifier? {
        guard slot.instance == nil else { return nil }
        let scope = slot.blueprint.scope
        let isolation = slot.blueprint.isolation
        guard scope == .unique || scope == .shared,
            slot.hasDirectRecipe,  // decorated slots take the general path; so do `@MainActor` hooks
            // Async factories, and main-actor ones off the main actor, are checked on the general path.
            isolation == .none || (onMainActor && isolation == .mainActor)
        else { return nil }
        let toStore = ObjectIdentifier(ToStore.self)
        guard let info = slot.typeInfo, slot.hasPlainRecipe, !info.isResolvable, !info.hasInjectedProperties else {
            return toStore
        }
        return info.type
    }

    /// How a plain factory of `slot` makes its instance, given its `fastType`: `.injecting` for a `.unique` or
    /// `.shared` definition whose instances need only their `@Injected` properties filled after it (no hooks, not `Resolvable`, and
    /// auto-injection not turned off for the definition since its type was learned with it on), else `.plain`.
    /// Call under the owner's lock or reader bias.
    @inline(__always)
    func plainMaking(for slot: Slot, _ type: ObjectIdentifier) -> FastMake.Making {
        guard type == ObjectIdentifier(ToStore.self) else { return .plain(expecting: type) }
        return injectingMaking(for: slot) ?? .plain(expecting: type)
    }

    /// `plainMaking` for a slot whose instance is to be stored: `.injecting` when that qualifies. Out of line: the
    /// common step stays small.
    @inline(never)
    private func injectingMaking(for slot: Slot) -> FastMake.Making? {
        guard slot.blueprint.scope == .unique || slot.blueprint.scope == .shared, slot.hasPlainRecipe,
            let info = slot.typeInfo,
            info.hasInjectedProperties, !info.isResolvable, slot.recipe.autoInjects != false
        else { return nil }
        return .injecting(expecting: info.type)
    }

    /// Claims the first construction of a singleton (any singleton scope) that nobody is constructing for the
    /// calling thread's graph, as `Slot.acquire` claims it on the general path; `nil` for anything else (a
    /// construction in progress, a weak singleton still alive, hooks on the main actor, decorators, an `async`
    /// factory). Call under the lock of the slot's owner.
    func claimSingleton(_ slot: Slot, requested key: DefinitionKey) -> Pending? {
        guard slot.blueprint.scope.isSingleton, slot.instance == nil, slot.weakInstance == nil, slot.pending == nil,
            slot.hasDirectRecipe, slot.blueprint.isolation == .none
        else { return nil }
        let claimed = ResolutionGraph.unretainedCurrent.with { slot.acquire(key, graph: $0) }
        guard case .construct(let construction) = claimed else { return nil }
        return construction.claim
    }
}

/// The dynamic type of no instance: what the fast path "expects" when the new instance is to be stored as the general
/// path stores it (`Slot.store`): before a slot's first instance (its type is learned then), and for a definition
/// with hooks (they are queued then).
private enum ToStore {}
