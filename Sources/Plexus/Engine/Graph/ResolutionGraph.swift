internal import PlexusCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The resolution in progress on one thread: the outermost `resolve` call and everything it resolves, in any
/// container, until it returns. Engine/Graph/README.md describes the design and its invariants: every `resolve`
/// call is a scope that owns the work created inside it (ResolutionGraph+Scopes.swift).
///
/// One graph object lives per thread (in thread-local storage) and is reused by every outermost resolve on that
/// thread, so its arrays keep their capacity and an ordinary resolve allocates nothing here. Only its own thread
/// touches it; other threads only ever see its `id`.
final class ResolutionGraph {
    /// A factory, hook or property injection running on this thread. It points at the key or context it runs
    /// for, which lives in the caller's stack frame for at least as long as the frame is on the stack; so pushing
    /// and popping a frame copies no key, and the context users read through `container.context` is only built
    /// when they read it.
    struct Frame {
        enum Kind {
            /// The factory of the slot `slot` runs for the requested key.
            case factory(ObjectIdentifier, requested: Pinned<DefinitionKey>)
            /// Property hooks or `didResolveDependencies` run, in their context.
            case hooks(Pinned<DependencyContainer.Context>)
            /// A property is being auto-injected, in its context.
            case property(Pinned<DependencyContainer.Context>)
            /// The `@Injected` properties of an instance are filled right after its factory's frame ended (the fast
            /// path's `injectNow`), for the key that factory ran for; the context is the one it ran in. A hooks frame
            /// without a `Context` to make.
            case made(Pinned<DefinitionKey>)
        }

        let kind: Kind
        /// The container whose slot's factory runs (unretained: it is alive while its factory runs), for factories
        /// handed their container (`register { c in … }`); `nil` for hooks and properties.
        var owner: Borrowed<DependencyContainer>? = nil

        var slot: ObjectIdentifier? {
            if case .factory(let slot, _) = kind { return slot }
            return nil
        }

        var isFactory: Bool {
            if case .factory = kind { return true }
            return false
        }
    }

    /// A `.shared` instance of the graph, kept per definition (one per definition within a graph, in any
    /// container), so that a definition registered in several containers gives one instance per graph.
    struct SharedEntry {
        /// The definition's identity, what lookups compare (reading it copies no reference); `definition` keeps it
        /// unique.
        let id: ObjectIdentifier
        let definition: AnyObject
        let instance: Any

        init(definition: AnyObject, instance: consuming Any) {
            id = ObjectIdentifier(definition)
            self.definition = definition
            self.instance = instance
        }
    }

    struct Commit {
        let pending: Pending
        let slot: Slot
        let owner: DependencyContainer
    }

    /// A `Resolvable` whose `didResolveDependencies` is due, with the context it was resolved in.
    struct Callback {
        let resolvable: Resolvable
        let context: DependencyContainer.Context
    }

    /// Where one `resolve` call's work starts in the graph's arrays (see Engine/Graph/README.md): what was appended
    /// after these counts belongs to that call until it ends.
    struct ScopeMark {
        let queue: Int
        let callbacks: Int
        let commits: Int
        let shared: Int
        /// Whether the call finishes its own work before returning: the outermost resolve, and any resolve started
        /// while hooks or callbacks (not a factory) run.
        let isFull: Bool
    }

    /// Everything the graph tracks, stored in the graph (`state`). Not copyable: it owns its frames' memory.
    struct State: ~Copyable {
        /// Nesting of `resolve` calls on this thread; 0 when no resolution is in progress.
        var depth = 0 {
            didSet {
                if depth == 0, oldValue > 0 { session &+= 1 }
                #if PLEXUS_CHECK_INVARIANTS
                    if depth == 1, oldValue == 0 { checkIdle() }
                #endif
            }
        }
        /// Counts the outermost resolves on this thread. It advances when one ends, so that the session of the next
        /// one is known before it starts: the fast path claims a singleton for it just before opening its scope.
        var session = 0
        var frames = FrameStack<Frame>()
        /// The slots of the running factories, kept only while the graph is deeper than `shallowDepth`, so that
        /// cycle detection stays O(1) for deep graphs and a plain scan of a few frames for the usual ones.
        var deepSlots: Set<ObjectIdentifier> = []
        /// The shared instances of the graph, in creation order; usually a handful, so scanned.
        var shared: [SharedEntry] = []
        /// Positions in `shared`, built once the graph has more shared instances than a scan should cover.
        var sharedIndex: [ObjectIdentifier: Int] = [:]
        var queue: [DeferredHooks] = []
        var callbacks: [Callback] = []
        var commits: [Commit] = []
        /// Constructions of other graphs whose values were lent to this one (`borrow`), for its outermost resolve.
        var borrowed: [Pending] = []
        /// The position in `commits` of the earliest singleton of this graph handed out before its scope ended
        /// (`usesUnfinished`), `Int.max` if none: scopes opened after it publish nothing of their own.
        var earliestUnfinishedUse = Int.max
        /// One mark per `resolve` call in progress on this thread, innermost last.
        var scopes: [ScopeMark] = []
        /// What the graph held, released only after it ended (see `releaseLeftovers`).
        var leftovers: [Any] = []
        /// The leftovers being released, in a buffer of their own so that both keep their capacity.
        var releasing: [Any] = []
        /// Leftovers too: the finished entries of `queue` and `shared`, moved here whole (no reference of theirs is
        /// copied), each with a buffer of its own for releasing.
        var retiredHooks: [DeferredHooks] = []
        var releasingHooks: [DeferredHooks] = []
        var retiredShared: [SharedEntry] = []
        var releasingShared: [SharedEntry] = []
        var isReleasing = false
        /// Below this stack address a factory does not start: the thread's stack is nearly used up. Per thread: a
        /// task's graph (Concurrency/) takes the limit of the thread it runs on each time it is installed.
        var stackLimit: UInt = 0
        /// The `depth` of the scope that may hand an `async` or `@MainActor` definition over to the async resolve
        /// whose segment it is (`Delivery.handOver`), instead of throwing; 0 when none may (Concurrency/).
        var handOverDepth = 0
        /// Graph report: set by `validate` while it records who resolves whom; `nil` otherwise.
        var recorder: GraphRecorder?
        /// The injection layout this thread used last, with its class: instances of one class are often injected
        /// one after another, and the layouts' table is then not read again (`injectionLayout(of:)`).
        var lastLayout: (type: ObjectIdentifier, layout: InjectionLayout)?
        /// The failure last logged at `.verbose` by a resolve inside a factory, with its session, so that the
        /// resolves it propagates through do not log it again. Touched only on the failure path.
        var loggedFailure: (session: Int, description: String)?

        /// Checks, as an outermost resolve starts (in builds that check invariants, `Invariants`), that the previous
        /// one left nothing behind but what it releases later: no frame, scope, queued hook, callback, pending
        /// singleton, borrowed construction or shared instance, and no unfinished use recorded.
        func checkIdle() {
            Invariants.require(frames.count == 0 && deepSlots.isEmpty, "a new resolve starts with frames left")
            // The outermost call's own scope may be open already (`openScope` records it before counting the depth).
            Invariants.require(scopes.count <= 1, "a new resolve starts inside \(scopes.count - 1) scopes")
            Invariants.require(queue.isEmpty && callbacks.isEmpty, "a new resolve starts with hooks queued")
            Invariants.require(commits.isEmpty && borrowed.isEmpty, "a new resolve starts with singletons pending")
            Invariants.require(shared.isEmpty && sharedIndex.isEmpty, "a new resolve starts with shared instances kept")
            Invariants.require(earliestUnfinishedUse == Int.max, "a new resolve starts with an unfinished use")
        }
    }

    /// Touched only by this graph's thread (and by the files of this folder), or, for a task's graph, by the one
    /// task resolving with it, one step at a time. The runtime does not check its accesses for exclusivity in
    /// release and debug builds: checked, a `.unique` resolve cost 48% more instructions (`Benchmarks/profile
    /// unique/plexus`, 1,298 against 880). No access spans user code (a factory, hook or `deinit`): what the graph
    /// releases is moved out of the state first (`releaseLeftovers`). Builds that check invariants check every access,
    /// so the test suite's checked run stops at the first overlap (the engine README's table of escapes).
    #if PLEXUS_CHECK_INVARIANTS
        var state = State()
    #else
        @exclusivity(unchecked) var state = State()
    #endif

    /// Whether this thread keeps from release what the engine drops, while a package caller holds a lock of its own
    /// (`DependencyContainer.releasingAfterwards`), and what it keeps. Touched only by this graph's thread.
    var holdsReleases = false
    var heldReleases: [Any] = []

    /// A thread's graph (`forTask: false`), with the thread's stack limit, or a task's graph (Concurrency/), which
    /// takes the limit of the thread it is installed on.
    init(forTask: Bool = false) {
        if !forTask { state.stackLimit = StackBounds.limitForCurrentThread() }
    }

    /// Identifies the resolution in progress to other threads (which one constructs a singleton, who waits for
    /// whom, who may borrow). Each outermost resolve on this thread is a new session, so nothing granted to one
    /// resolution carries over to the next. Between two outermost resolves it is the id of the next one.
    var id: GraphID { GraphID(graph: ObjectIdentifier(self), session: state.session) }

    /// The recorder of the `validate` running on this graph, if any (graph report).
    var recorder: GraphRecorder? { state.recorder }

    /// Nesting of `resolve` calls on this thread; 0 when no resolution is in progress.
    var depth: Int {
        get { state.depth }
        set { state.depth = newValue }
    }

    /// Counts the outermost resolves on this thread; it advances when one ends.
    var session: Int { state.session }

    /// See `State.loggedFailure`.
    var loggedFailure: (session: Int, description: String)? {
        get { state.loggedFailure }
        set { state.loggedFailure = newValue }
    }

    /// The graph a resolve starting on the calling thread joins: the thread's graph, or, while the thread's graph
    /// is idle and the current task runs an async resolve (its async factory's body calls a typed accessor or reads
    /// `context`), that resolve's graph, so that `.shared` instances, cycle detection, `context` and the graph
    /// report span both (`joinedTaskGraph`).
    static var current: ResolutionGraph {
        unretainedCurrent.object
    }

    /// Whether the calling thread's graph (or the task graph it joined) has no resolve in progress: borrowed, no
    /// reference counted.
    static var currentIsIdle: Bool {
        unretainedCurrent.with { $0.depth == 0 }
    }

    /// `current`, unretained: the thread-local slot (or, while a task's graph is installed, the async resolve that
    /// installed it; joined, the task's resolve, suspended in its factory) keeps it alive for as long as any
    /// resolve on this thread runs, so the resolve core borrows it instead of retaining it (an atomic increment and
    /// decrement per resolve).
    static var unretainedCurrent: Borrowed<ResolutionGraph> {
        // A thread's first resolve may be an async factory's body resuming on a thread new to Plexus: it joins too.
        let graph = CurrentThread.graph(ResolutionGraph.self) ?? Borrowed(makeCurrent())
        // One relaxed load while no async resolve is in progress anywhere in the process.
        if LiveTaskGraphs.any, let joined = joinedTaskGraph(of: graph) { return joined }
        return graph
    }

    /// The graph of the calling thread itself, never a task's it could join (`installed` swaps it).
    static var threadGraph: ResolutionGraph {
        if let graph = CurrentThread.graph(ResolutionGraph.self) { return graph.object }
        return makeCurrent()
    }

    /// The first graph of the calling thread. Out of line: inlined, its temporaries would enlarge the stack frame
    /// of every nested resolve that reads `current`.
    @inline(never)
    private static func makeCurrent() -> ResolutionGraph {
        let graph = ResolutionGraph()
        // The pthread key keeps this reference until the thread exits.
        let kept = Owned(retaining: graph)
        checkPThread(pthread_setspecific(graphKey, kept.address), "pthread_setspecific")
        CurrentThread.install(kept.borrowed)
        return graph
    }

    /// Keeps `dropped` from release if a package caller on the calling thread asked (`holdsReleases`); returns
    /// whether it did. One thread-local load when the thread has no graph.
    static func holdIfAsked(_ dropped: @autoclosure () -> Any) -> Bool {
        guard let graph = CurrentThread.graph(ResolutionGraph.self) else { return false }
        return graph.with { graph in
            guard graph.holdsReleases else { return false }
            graph.heldReleases.append(dropped())
            return true
        }
    }

    /// The graph of the calling thread if a resolution is in progress on it.
    static var active: ResolutionGraph? {
        guard CurrentThread.hasGraph || LiveTaskGraphs.any else { return nil }
        let graph = current
        return graph.depth > 0 ? graph : nil
    }

    /// `active?.innermostTag`, with the graph borrowed rather than retained.
    static var activeInnermostTag: DependencyContainer.Tag? {
        guard CurrentThread.hasGraph || LiveTaskGraphs.any else { return nil }
        return unretainedCurrent.with { $0.depth > 0 ? $0.innermostTag : nil }
    }

    /// `InjectionLayout.of(type)`, the last one used on this thread kept at hand: a layout never changes once
    /// learned.
    func injectionLayout(of type: Any.Type) -> InjectionLayout {
        let id = ObjectIdentifier(type)
        if let last = state.lastLayout, last.type == id { return last.layout }
        let layout = InjectionLayout.of(type)
        state.lastLayout = (id, layout)
        return layout
    }

    // MARK: Frames and cycles

    /// The context of the innermost factory, hook or property injection running on this thread.
    var context: DependencyContainer.Context? {
        state.frames.indices.last.map(context(at:))
    }

    /// The tag of the innermost frame's key: `context?.key.tag`, without building the context (a property's
    /// injection asks it for the tag its enclosing instance passes down).
    var innermostTag: DependencyContainer.Tag? {
        guard let frame = state.frames.last else { return nil }
        switch frame.kind {
        case .factory(_, let key), .made(let key): return key.value.tag
        case .hooks(let context), .property(let context): return context.value.key.tag
        }
    }

    private func context(at index: Int) -> DependencyContainer.Context {
        let frame = state.frames[index]
        switch frame.kind {
        case .factory(_, let key), .made(let key):
            return context(ofFactoryFor: key.value, under: index > 0 ? state.frames[index - 1] : nil)
        case .hooks(let context), .property(let context):
            return context.value
        }
    }

    /// The key of a `.factory` or `.made` frame, or of the context of a `.hooks` one; `nil` for a `.property` frame.
    private func instanceKey(of frame: Frame) -> DefinitionKey? {
        switch frame.kind {
        case .factory(_, let key), .made(let key): key.value
        case .hooks(let context): context.value.key
        case .property: nil
        }
    }

    /// The context of a factory frame for `key` right above `parent` (`nil` for the outermost frame).
    private func context(ofFactoryFor key: DefinitionKey, under parent: Frame?) -> DependencyContainer.Context {
        guard let parent else {
            return DependencyContainer.Context(key: key, injectedInType: nil, injectedInProperty: nil)
        }
        switch parent.kind {
        case .factory(_, let parentKey), .made(let parentKey):
            // Under a `.made` frame, as under the hooks frame it stands for: injected in that instance's type.
            return DependencyContainer.Context(
                key: key, injectedInType: parentKey.value.type, injectedInProperty: nil)
        case .hooks(let parentContext):
            return DependencyContainer.Context(
                key: key, injectedInType: parentContext.value.resolvingType, injectedInProperty: nil)
        case .property(let context):
            // What a property resolves is injected in the instance that holds the property.
            let property = context.value
            return DependencyContainer.Context(
                key: key, injectedInType: property.injectedInType, injectedInProperty: property.injectedInProperty)
        }
    }

    /// Runs the factory `body` of `slot` for the key at `requested`; throws if that factory is already running in
    /// this graph (a cycle that only constructors could close).
    func runFactory<R>(
        of slot: AnyObject, requested: Pinned<DefinitionKey>, owner: DependencyContainer,
        _ body: () throws -> R
    ) throws -> R {
        let id = ObjectIdentifier(slot)
        try enterFactory(id, requested: requested, owner: owner)
        defer { leaveFactory(id) }
        return try body()
    }

    /// Pushes the frame of the factory of the slot `id`, after checking for a cycle and for stack room. The async
    /// resolve (Concurrency/) pushes and pops it around an `await`; `requested` must stay valid until it pops.
    ///
    /// Inlined: the fast path enters a factory on every resolve (the checks that fail, and the deep graphs'
    /// cycle set, are out of line).
    @inline(__always)
    func enterFactory(
        _ id: ObjectIdentifier, requested: Pinned<DefinitionKey>, owner: DependencyContainer
    ) throws {
        if state.frames.count < Self.shallowDepth {
            if state.frames.contains(where: { $0.slot == id }) { try failEntering(cycleAt: id) }
        } else if isRunningDeep(id) {
            try failEntering(cycleAt: id)
        }
        if CurrentThread.frameAddress < state.stackLimit { try failEntering(tooDeepFor: requested) }
        state.frames.append(
            Frame(kind: .factory(id, requested: requested), owner: Borrowed(owner)))
        if !state.deepSlots.isEmpty { state.deepSlots.insert(id) }
    }

    /// `enterFactory` found the factory of the slot `id` running: the cycle it closes.
    @inline(never)
    private func failEntering(cycleAt id: ObjectIdentifier) throws -> Never {
        throw ResolutionError.circularDependency(path: cyclePath(from: id))
    }

    /// `enterFactory` found the thread's stack nearly used up.
    @inline(never)
    private func failEntering(tooDeepFor requested: Pinned<DefinitionKey>) throws -> Never {
        // Every frame counts: a property hook that resolves a new instance of its own definition recurses
        // through hooks frames, with one factory frame at a time on the stack.
        let path = state.frames.indices.map { context(at: $0).key } + [requested.value]
        throw ResolutionError.resolutionTooDeep(depth: path.count, path: path)
    }

    /// Pops the frame `enterFactory` pushed.
    @inline(__always)
    func leaveFactory(_ id: ObjectIdentifier) {
        state.frames.removeLast()
        if !state.deepSlots.isEmpty {
            if state.frames.count < Self.shallowDepth {
                state.deepSlots.removeAll(keepingCapacity: true)
            } else {
                state.deepSlots.remove(id)
            }
        }
    }

    /// Runs `body` with a hooks frame for `context` on the stack.
    func run<R>(hooks context: DependencyContainer.Context, _ body: () throws -> R) rethrows -> R {
        try Pinned.with(context) { try run(.hooks($0), body) }
    }

    /// Runs `body` with a property frame for `context` on the stack.
    func run<R>(property context: DependencyContainer.Context, _ body: () throws -> R) rethrows -> R {
        try Pinned.with(context) { try run(.property($0), body) }
    }

    /// Runs `body` with a property frame for the context at `context`, which stays valid until it returns.
    func run<R>(property context: Pinned<DependencyContainer.Context>, _ body: () throws -> R) rethrows -> R {
        try run(.property(context), body)
    }

    /// Runs `body`, the property work of an instance whose factory for `key` has just returned, in a `.made` frame.
    func run<R>(madeFor key: Pinned<DefinitionKey>, _ body: () throws -> R) rethrows -> R {
        try run(.made(key), body)
    }

    /// Runs `body` with a frame of `kind` on the stack.
    private func run<R>(_ kind: Frame.Kind, _ body: () throws -> R) rethrows -> R {
        state.frames.append(Frame(kind: kind))
        defer { state.frames.removeLast() }
        return try body()
    }

    /// Up to this many frames, cycle detection scans them; deeper, it uses `deepSlots`.
    static let shallowDepth = 16

    /// Whether the factory of the slot `id` is running in this graph, at least `shallowDepth` frames deep: the set of
    /// running factories, built on first need.
    @inline(never)
    private func isRunningDeep(_ id: ObjectIdentifier) -> Bool {
        if state.deepSlots.isEmpty {
            state.deepSlots = Set(state.frames.elements.compactMap(\.slot))
        }
        return state.deepSlots.contains(id)
    }

    /// Runs `body` while the property `label` of an instance of `holder` is being auto-injected: the context then
    /// names the property, with the tag the instance passes down, and what it resolves is injected in `holder`.
    func injecting<R>(
        _ label: String?, of type: Any.Type, in holder: Any.Type, tag: DependencyContainer.Tag?, _ body: () throws -> R
    ) rethrows -> R {
        let context = DependencyContainer.Context(
            key: DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag),
            injectedInType: holder, injectedInProperty: label)
        return try run(property: context, body)
    }

    /// The keys of the factories running in this graph, outermost first, from the one of `slot` on (all of them
    /// for `nil`).
    func factoryPath(from id: ObjectIdentifier?) -> [DefinitionKey] {
        let factories = state.frames.elements.compactMap { frame -> (slot: ObjectIdentifier, key: DefinitionKey)? in
            guard case .factory(let slot, let key) = frame.kind else { return nil }
            return (slot, key.value)
        }
        let start = id.flatMap { id in factories.firstIndex { $0.slot == id } } ?? factories.startIndex
        return factories[start...].map(\.key)
    }

    /// Whether the innermost running factory is one `container` runs to make an instance it keeps itself (a
    /// `.singleton`, `.eagerSingleton` or `.cached` one): what that instance holds strongly, `container` included,
    /// lives as long as `container` does. `false` inside hooks and property injection.
    func innermostFactoryMakesAnInstanceKept(by container: DependencyContainer) -> Bool {
        guard let frame = state.frames.indices.last.map({ state.frames[$0] }),
            case .factory(let id, _) = frame.kind, frame.owner?.refers(to: container) == true
        else { return false }
        // Every factory frame is pushed for a slot (`runFactory`, the fast path's `construct`, the async driver), which
        // its running factory keeps alive until the frame pops.
        switch Borrowed<Slot>(identifiedBy: id).with({ $0.blueprint.scope }) {
        case .singleton, .eagerSingleton, .cached: return true
        case .unique, .shared, .weakSingleton: return false
        }
    }

    /// The last of `dependentKeys` (the instance a lookup is made for), found without building the array.
    var innermostDependentKey: DefinitionKey? {
        for frame in state.frames.elements.reversed() {
            if let key = instanceKey(of: frame) { return key }
        }
        return nil
    }

    /// The keys of the instances being made in this graph, outermost first: each running factory, and each
    /// instance whose property hooks run. The "required by" chain of a `definitionNotFound` (added for error
    /// messages; keep when rewriting).
    var dependentKeys: [DefinitionKey] {
        state.frames.elements.compactMap(instanceKey(of:))
    }

    /// The cycle closed by entering the factory of `slot` again: its running factories from the first entry of
    /// `slot` on, then that entry again, so the path reads `A -> B -> A` even when it was re-entered through a
    /// forwarded type or an `Optional`.
    func cyclePath(from id: ObjectIdentifier) -> [DefinitionKey] {
        let path = factoryPath(from: id)
        return path + path.prefix(1)
    }
}

/// The thread-local slot that owns each thread's graph (resolves read `CurrentThread.graph` instead): the graph is
/// released when its thread exits, after the variable resolves read is cleared, so that a resolve made later in
/// the thread's exit (another key's destructor) starts a new graph rather than use the released one.
private let graphKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { pointer in
        CurrentThread.install(Borrowed<ResolutionGraph>?.none)
        #if canImport(Darwin)
            Owned<ResolutionGraph>(adoptingAddress: pointer).release()
        #else
            if let pointer { Owned<ResolutionGraph>(adoptingAddress: pointer).release() }
        #endif
    }
    checkPThread(created, "pthread_key_create")
    return key
}()

// A fast step's factory run inside the calling thread's graph, beside the factory's frame it enters
// (`enterFactory`, `leaveFactory` above): `carryOut(_:at:…)` (DependencyContainer+Core.swift) calls
// `constructInCurrentGraph`, in which `construct` (transparent: a debug build inlines it only into callers in this file)
// is written out.
extension DependencyContainer {
    /// `construct` in the calling thread's graph, borrowed. Out of line, with `construct` written out in it (also in a
    /// debug build, which gives every function and closure on the way to the factory a stack frame of its own).
    @inline(never)
    func constructInCurrentGraph(
        _ slot: Slot, _ making: FastMake.Making, at key: Pinned<DefinitionKey>, arguments: ResolveArguments,
        into result: InstanceStorage
    ) throws {
        try ResolutionGraph.unretainedCurrent.with { graph in
            try construct(slot, making, at: key, arguments: arguments, into: result, graph: graph)
        }
    }

    /// The new instance in the calling thread's `graph` (borrowed): the graph's `.shared` instance if it has one,
    /// else made in a light scope and the factory's frame, then finished as `finishFast` says (a singleton is stored
    /// by `constructSingleton`, its claim abandoned if anything in the factory's frame fails; either ends the step's
    /// reference to the claim).
    ///
    /// Written out in one body, without closure-taking helpers (`inGraph`, `runFactory`): every nested fast resolve
    /// recurses through here, and an unoptimized build gives each closure a stack frame of its own. The steps are
    /// those of `inGraph`: open the scope; close it, destroying the instance if closing fails, or abandon it on an
    /// error; release the leftovers of an outermost resolve.
    @_transparent
    private func construct(
        _ slot: Slot, _ making: FastMake.Making, at key: Pinned<DefinitionKey>, arguments: ResolveArguments,
        into result: InstanceStorage, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.scope == .shared, graph.depth > 0, try copyShared(of: slot, in: graph, key, into: result) {
            return
        }
        let scope = graph.openLightScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            var injectsNow = false
            do {
                let id = ObjectIdentifier(slot)
                try graph.enterFactory(id, requested: key, owner: self)
                defer { graph.leaveFactory(id) }
                switch making {
                case .plain(let type):
                    try slot.blueprint.make(arguments, into: result)
                    try finishFast(slot, expecting: type, result: result, graph: graph)
                case .injecting(let type):
                    try slot.blueprint.make(arguments, into: result)
                    injectsNow = try finishInjecting(slot, expecting: type, result: result, graph: graph, scope: scope)
                case .autoWired(let type):
                    try constructAutoWired(slot, key, into: result)
                    try finishFast(slot, expecting: type, result: result, graph: graph)
                case .singleton(let claim):
                    try constructSingleton(
                        slot, claim: claim.object, arguments: arguments, into: result, graph: graph)
                    claim.release()
                }
            } catch {
                abandonClaim(of: making, at: slot)
                throw error
            }
            do {
                if injectsNow { try injectNow(slot, at: key, into: result, graph: graph) }
                try graph.closeLightScope(scope)
            } catch {
                slot.blueprint.ops.destroy(result)
                throw error
            }
        } catch {
            abandon(scope, in: graph, after: error)
            throw error
        }
    }

    /// After the factory of a fast step failed: gives up the singleton claim `making` holds, if any, and ends the
    /// step's reference to it. Out of line, as the other failure steps of `construct`: their locals stay off the stack
    /// of the factories below it.
    @inline(never)
    private func abandonClaim(of making: FastMake.Making, at slot: Slot) {
        guard case .singleton(let claim) = making else { return }
        slot.abandon(claim.object, owner: self)
        claim.release()
    }

    /// After a fast step failed: abandons its light scope and logs the failure.
    @inline(never)
    private func abandon(_ scope: ResolutionGraph.LightScope, in graph: ResolutionGraph, after error: any Error) {
        graph.abandonLightScope(scope, after: error)
        logFailure(error, in: graph)
    }

    /// Copies the graph's instance of the `.shared` definition of `slot` into `result`, if the graph has one.
    /// Out of line, so that its existential stays off the stack of nested resolves.
    @inline(never)
    private func copyShared(
        of slot: Slot, in graph: ResolutionGraph, _ key: Pinned<DefinitionKey>,
        into result: InstanceStorage
    ) throws -> Bool {
        // Stored as made, so it has the slot's type.
        let unboxed = graph.withSharedInstance(of: slot.definition) { shared in
            slot.blueprint.ops.unbox(shared, result) ? nil : Swift.type(of: shared)
        }
        guard let unboxed else { return false }
        if let resolved = unboxed { throw ResolutionError.invalidType(resolved: resolved, key: key.value) }
        return true
    }

    /// After a fast factory returned: an instance of another dynamic type than `type` (always so for `ToStore`) is
    /// stored as the general path stores a new instance (`Slot.store`: its type's needs learned, a hooked
    /// definition's hooks queued); otherwise a shared one is kept for the rest of the graph (for an outermost resolve
    /// only if hooks are queued, which may resolve it again).
    @inline(never)
    private func finishFast(
        _ slot: Slot, expecting type: ObjectIdentifier, result: InstanceStorage, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.ops.dynamicType(of: result) != type {
            try store(slot, into: result, graph: graph)
        } else if slot.blueprint.scope == .shared, graph.depth > 1 || graph.hasQueuedHooks {
            graph.storeShared(slot.blueprint.ops.box(result), of: slot.definition)
        }
    }

    /// After the factory of `FastMake.Making.injecting` returned: whether its instance's `@Injected` properties are to
    /// be filled right after the factory's frame (`injectNow`). So they are when the instance has the type expected
    /// and `scope` runs its own work when it closes, with nothing queued in it yet: closing it would run exactly
    /// that work first, in the same context. Otherwise (inside another factory, whose graph fills them once the
    /// outermost factory has returned, or after other queued work) the instance is stored as the general path
    /// stores it, which queues them.
    @inline(never)
    private func finishInjecting(
        _ slot: Slot, expecting type: ObjectIdentifier, result: InstanceStorage, graph: ResolutionGraph,
        scope: ResolutionGraph.LightScope
    ) throws -> Bool {
        guard slot.blueprint.ops.dynamicType(of: result) == type, graph.runsNextWork(of: scope) else {
            try store(slot, into: result, graph: graph)
            return false
        }
        // Kept for the graph before its properties are filled, as `Slot.store` keeps it: a property that resolves it
        // again gets this instance (a cycle closed by injection).
        if slot.blueprint.scope == .shared { graph.storeShared(slot.blueprint.ops.box(result), of: slot.definition) }
        return true
    }

    /// Fills the `@Injected` properties of the new instance at `result`, made by the factory of `slot` for `key`,
    /// as its queued work would be when its scope closes: in a frame with the context its factory ran in (`.made`).
    @inline(never)
    private func injectNow(
        _ slot: Slot, at key: Pinned<DefinitionKey>, into result: InstanceStorage,
        graph: ResolutionGraph
    ) throws {
        try graph.run(madeFor: key) {
            try AutoInjector.inject(
                into: result, ops: slot.blueprint.ops, resolvedAt: key, container: self, graph: graph)
        }
    }

    /// Runs the factory of `slot` for the singleton claimed with `claim`, in a box of its own, and stores it:
    /// `Slot.store` hands it to the graph (published when the scope that owns it ends, rolled back if it fails) and
    /// copies it into `result`, exactly as on the general path.
    @inline(never)
    private func constructSingleton(
        _ slot: Slot, claim: Pending, arguments: ResolveArguments, into result: InstanceStorage,
        graph: ResolutionGraph
    ) throws {
        // The factory runs from this frame, not from a closure handed to the box: every nested singleton's first
        // construction recurses through here, and a debug build gives each closure and initializer a frame.
        let ops = slot.blueprint.ops
        let storage = InstanceBox.allocate(ops)
        do {
            try slot.blueprint.make(arguments, into: storage)
        } catch {
            storage.deallocate()
            throw error
        }
        try store(slot, InstanceBox(ops: ops, initialized: storage), claim: claim, into: result, graph: graph)
    }

    /// Stores the instance the fast path made at `result` as the general path stores one (`Slot.store`: its type's
    /// needs learned, its property work queued in the graph): a new instance, or the singleton `box` that
    /// `constructSingleton` made for `claim`. Out of line: its locals stay off the stack of the factory that ran.
    @inline(never)
    private func store(
        _ slot: Slot, _ box: InstanceBox? = nil, claim: Pending? = nil, into result: InstanceStorage,
        graph: ResolutionGraph
    ) throws {
        // Read under the lock, as `acquire` does: hooks may be added and types learned meanwhile.
        let (recipe, info) = registry.withLockKeepingReaders { _ in (slot.recipe, slot.typeInfo) }
        _ = try slot.store(
            box, typed: result, Construction(recipe: recipe, claim: claim, typeInfo: info), forward: nil, owner: self,
            graph: graph)
    }

    /// Runs the auto-wiring factory of `slot` into `result`, its arguments resolved from this container inside the
    /// factory's frame, as the general path does (`Slot.withAutoWiredArguments`: the request's tag passed down, an
    /// argument's error wrapped in `autoWiringFailed`, the factory's own propagated unchanged).
    ///
    /// Written out in one body over the arguments laid out at registration: every level of an auto-wired chain
    /// recurses through here, and `autoWire`'s closures would each add a frame to it in a debug build. Out of line:
    /// its storage stays off the stack of the common case.
    @inline(never)
    private func constructAutoWired(
        _ slot: Slot, _ key: Pinned<DefinitionKey>, into result: InstanceStorage
    ) throws {
        guard let layout = slot.blueprint.argumentLayout else {
            return try slot.withAutoWiredArguments(key: key.value, owner: self) { arguments in
                try slot.blueprint.make(arguments, into: result)
            }
        }
        try ArgumentTuple.withUninitialized(byteCount: layout.size, alignment: layout.alignment) { tuple in
            var resolved = 0
            defer { layout.destroy(resolved, in: tuple) }
            while resolved < layout.elements.count {
                let element = layout.elements[resolved]
                do {
                    try resolveRaw(
                        element.type, typeOfArguments: Void.self, tag: key.value.tag,
                        arguments: .none, into: tuple.element(at: element.offset, for: element.type))
                } catch {
                    throw slot.autoWiringFailure(error, key: key.value)
                }
                resolved += 1
            }
            try slot.blueprint.make(tuple.arguments, into: result)
        }
    }
}
