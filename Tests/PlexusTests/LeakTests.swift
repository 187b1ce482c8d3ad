import Foundation
import Plexus
import PlexusTesting
import Testing

// Nothing Plexus made outlives what owns it: containers, collaborators, definitions, weak singletons, the shared
// instances of a finished graph, every instance of a failed graph, and singletons after `reset`, `remove` or an
// override. Instances released by the container run their `deinit` outside its lock, so a `deinit` may use the
// container.

// MARK: - Fixtures

private final class Leaf {}

private final class Branch {
    let leaf: Leaf

    init(leaf: Leaf) {
        self.leaf = leaf
    }
}

private final class Trunk {
    let branch: Branch
    let leaf: Leaf

    init(branch: Branch, leaf: Leaf) {
        self.branch = branch
        self.leaf = leaf
    }
}

private final class Marker {}

/// Runs `onDeinit` when freed.
private final class Tracked {
    let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}

/// Takes a `Tracked` in its initializer and drops it.
private final class Holder {
    init(tracked: Tracked?) {}
}

private enum Broken: Error {
    case factory
    case hook
}

/// A weak reference a factory can fill; `@unchecked Sendable` is safe because `object` is only touched under `lock`.
private final class WeakRef: @unchecked Sendable {
    private let lock = NSLock()
    private weak var value: AnyObject?

    var object: AnyObject? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// A strong reference the test can drop later.
private final class StrongRef {
    var object: AnyObject?
}

/// Runs `body` on a new thread and waits at most `timeout` seconds for it, so that a deadlock fails the test
/// instead of hanging it (the stuck thread is abandoned).
private func finishesOnAThread(timeout: TimeInterval = 5, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread(
        block: quiet {
            body()
            done.signal()
        })
    thread.start()
    return done.wait(timeout: .now() + timeout) == .success
}

private let cachingScopes: [ComponentScope] = [.singleton, .eagerSingleton, .weakSingleton, .cached]

@Suite(.silencingPlexusLogs) struct LeakTests {
    let container = DependencyContainer()

    /// Registers `Trunk -> Branch -> Leaf` in `container`, the factories capturing it unowned, with hooks.
    private static func registerTree(in container: DependencyContainer, scope: ComponentScope) {
        container.register(scope) { [unowned container] () throws -> Trunk in
            Trunk(branch: try container.resolve(), leaf: try container.resolve())
        }
        .resolvingProperties { container, _ in _ = try container.resolve() as Leaf }
        container.register(scope) { [unowned container] () throws -> Branch in Branch(leaf: try container.resolve()) }
        container.register(scope) { Leaf() }.implements(AnyObject.self)
    }

    @Test(arguments: ComponentScope.allCases)
    func containerWithFactoriesCapturingItUnownedIsFreed(scope: ComponentScope) throws {
        weak var weakContainer: DependencyContainer?
        weak var weakTrunk: Trunk?
        weak var weakLeaf: Leaf?
        try {
            let container = DependencyContainer()
            Self.registerTree(in: container, scope: scope)
            try container.bootstrap()
            let trunk: Trunk = try container.resolve()
            weakContainer = container
            weakTrunk = trunk
            weakLeaf = trunk.leaf
        }()

        #expect(weakContainer == nil, "the container leaked")
        #expect(weakTrunk == nil, "an instance outlived its container")
        #expect(weakLeaf == nil, "an instance outlived its container")
    }

    @Test func collaboratingContainersAreFreed() throws {
        weak var weakRoot: DependencyContainer?
        weak var weakLeft: DependencyContainer?
        weak var weakRight: DependencyContainer?
        weak var weakLeaf: Leaf?
        try {
            let root = DependencyContainer()
            let left = DependencyContainer()
            let right = DependencyContainer()
            root.register(.singleton) { Leaf() }
            left.register { [unowned left] () throws -> Branch in Branch(leaf: try left.resolve()) }
            right.register(.singleton) { [unowned right] () throws -> Trunk in
                Trunk(branch: try right.resolve(), leaf: try right.resolve())
            }
            left.collaborate(with: right, root)
            right.collaborate(with: left, root)
            root.collaborate(with: left)
            let trunk: Trunk = try right.resolve()
            #expect(trunk.leaf === trunk.branch.leaf)
            (weakRoot, weakLeft, weakRight, weakLeaf) = (root, left, right, trunk.leaf)
        }()

        #expect(weakRoot == nil && weakLeft == nil && weakRight == nil, "collaboration links kept a container alive")
        #expect(weakLeaf == nil, "a singleton outlived the container that owns it")
    }

    @Test func definitionIsFreedWithItsContainer() throws {
        weak var weakDefinition: Definition<Leaf, Void>?
        try {
            let container = DependencyContainer()
            let definition = container.register(.singleton) { Leaf() }
                .resolvingProperties { _, _ in }
                .implements(AnyObject.self)
            _ = try container.resolve() as Leaf
            weakDefinition = definition
        }()

        #expect(weakDefinition == nil)
    }

    @Test func weakSingletonIsFreedWithItsLastOutsideReference() throws {
        let calls = Counter()
        container.register(.weakSingleton) { () -> Leaf in
            calls.increment()
            return Leaf()
        }
        weak var weakLeaf: Leaf?
        try {
            let first: Leaf = try container.resolve()
            let second: Leaf = try container.resolve()
            #expect(first === second)
            weakLeaf = first
        }()

        #expect(weakLeaf == nil, "the container kept a weak singleton alive")
        _ = try container.resolve() as Leaf
        #expect(calls.count == 2)
    }

    @Test func sharedInstancesOfAFinishedGraphAreFreed() throws {
        Self.registerTree(in: container, scope: .shared)
        weak var weakLeaf: Leaf?
        weak var weakBranch: Branch?
        try {
            let trunk: Trunk = try container.resolve()
            #expect(trunk.leaf === trunk.branch.leaf, "shared is one instance per graph")
            (weakLeaf, weakBranch) = (trunk.leaf, trunk.branch)
        }()

        #expect(weakLeaf == nil, "a shared instance outlived its graph")
        #expect(weakBranch == nil, "a shared instance outlived its graph")
        #expect(try container.resolve() as Leaf !== (try container.resolve() as Leaf))
    }

    @Test(arguments: ComponentScope.allCases, [false, true])
    func instancesOfAFailedGraphAreFreed(scope: ComponentScope, failInHook: Bool) throws {
        let made = (leaf: WeakRef(), branch: WeakRef())
        // The hooks keep the singletons unfinished until the graph's end, so the failure rolls them back (one whose
        // own resolve finished is published at once: `RegressionTests` pins that).
        container.register(scope) { () -> Leaf in
            let leaf = Leaf()
            made.leaf.object = leaf
            return leaf
        }
        .resolvingProperties { _, _ in }
        container.register(scope) { [unowned container] () throws -> Branch in
            let branch = Branch(leaf: try container.resolve())
            made.branch.object = branch
            return branch
        }
        .resolvingProperties { _, _ in }
        container.register(.unique) { [unowned container] () throws -> Trunk in
            let trunk = Trunk(branch: try container.resolve(), leaf: try container.resolve())
            if !failInHook { throw Broken.factory }
            return trunk
        }
        .resolvingProperties { _, _ in if failInHook { throw Broken.hook } }

        #expect(throws: Broken.self) { try container.resolve() as Trunk }

        #expect(made.leaf.object == nil, "an instance of the failed graph leaked")
        #expect(made.branch.object == nil, "an instance of the failed graph leaked")
        // Rolled back, not half-published: the next graph makes them again.
        let branch: Branch = try container.resolve()
        #expect(made.branch.object === branch)
    }

    @Test(arguments: cachingScopes)
    func resetFreesSingletons(scope: ComponentScope) throws {
        // A weak singleton lives while something outside holds it: the test holds it across `reset` here, then
        // lets go, and the container must not have kept it.
        let keep = StrongRef()
        container.register(scope) { Leaf() }
        try container.bootstrap()
        weak var weakLeaf: Leaf?
        try {
            let leaf: Leaf = try container.resolve()
            weakLeaf = leaf
            let again: Leaf = try container.resolve()
            #expect(again === leaf)
            if scope == .weakSingleton { keep.object = leaf }
        }()
        #expect(weakLeaf != nil, "the singleton must live until reset")

        container.reset()
        keep.object = nil

        #expect(weakLeaf == nil)
    }

    @Test(arguments: cachingScopes)
    func ownerResetFreesSingletonsResolvedThroughACollaborator(scope: ComponentScope) throws {
        let owner = DependencyContainer()
        owner.register(scope) { Leaf() }
        container.collaborate(with: owner)
        weak var weakLeaf: Leaf?
        try {
            let leaf: Leaf = try container.resolve()
            #expect(try owner.resolve() as Leaf === leaf)
            weakLeaf = leaf
        }()

        owner.reset()

        #expect(weakLeaf == nil, "a collaborator kept a copy of the owner's singleton")
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton], [true, false])
    func removeAndOverrideFreeSingletons(scope: ComponentScope, override: Bool) throws {
        let definition = container.register(scope) { Leaf() }
        weak var weakLeaf: Leaf?
        try { weakLeaf = try container.resolve() as Leaf }()
        #expect(weakLeaf != nil, "the singleton must live until it is removed or overridden")

        if override {
            container.register(scope) { Leaf() }
        } else {
            container.remove(definition)
        }

        #expect(weakLeaf == nil)
    }

    // MARK: deinit runs outside the container's lock

    /// What makes the container release an instance whose `deinit` resolves from the container.
    enum Release: String, CaseIterable, Codable, Sendable {
        case reset
        case remove
        case override
        case failedGraphSingleton
        case failedGraphShared
        case endOfGraphShared
        case endOfGraphUniqueWithHook
        case endOfGraphWeakSingleton
    }

    /// Each case runs in a child process (an exit test), so that a crash fails this test instead of the whole run.
    @Test(arguments: Release.allCases)
    func deinitOfAReleasedInstanceMayUseTheContainer(release: Release) async {
        await #expect(processExitsWith: .success) { [release] in
            let container = DependencyContainer()
            let deinits = Counter()
            container.register { Marker() }
            let scope: ComponentScope =
                switch release {
                case .reset, .remove, .override, .failedGraphSingleton: .singleton
                case .failedGraphShared, .endOfGraphShared: .shared
                case .endOfGraphUniqueWithHook: .unique
                case .endOfGraphWeakSingleton: .weakSingleton
                }
            let definition = container.register(scope) { [unowned container] () -> Tracked in
                Tracked {
                    // A deinit that touches the container deadlocks if the container's lock is held.
                    _ = try? container.resolve() as Marker
                    deinits.increment()
                }
            }
            // A hook keeps a failed graph's singleton unfinished, so that the failure rolls it back (a singleton whose
            // own resolve finished is published at once and survives the failure).
            if release == .endOfGraphUniqueWithHook || release == .failedGraphSingleton {
                definition.resolvingProperties { _, _ in }
            }
            container.register(.unique) { [unowned container] () throws -> Holder in
                let holder = Holder(tracked: try container.resolve())
                if release == .failedGraphSingleton || release == .failedGraphShared { throw Broken.factory }
                return holder
            }

            let finished = finishesOnAThread {
                _ = try? container.resolve() as Holder
                switch release {
                case .reset: container.reset()
                case .remove: container.remove(definition)
                case .override: container.register(.singleton) { Tracked {} }
                default: break
                }
            }

            guard finished else { fatalError("deadlock: the container released an instance while holding its lock") }
            guard deinits.count == 1 else { fatalError("deinit ran \(deinits.count) times") }
        }
    }
}
