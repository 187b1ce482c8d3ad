/// Who performs a scenario: the same objects built by hand, by Plexus, by Swinject, or read with
/// swift-dependencies' `@Dependency`. In table order.
public enum Contender: String, CaseIterable, Sendable {
    case hand
    case plexus
    case swinject
    /// pointfreeco/swift-dependencies. Its runners live in the `PeerScenarios` target (so that what does not need
    /// swift-dependencies never builds it) and are attached with ``Scenario/adding(_:_:)``; the scenarios of this
    /// module have none.
    case dependencies

    /// The column title.
    public var title: String {
        switch self {
        case .hand: "hand-written"
        case .plexus: "Plexus"
        case .swinject: "Swinject"
        case .dependencies: "swift-dependencies"
        }
    }
}

/// One measured situation (a kind of resolve), prepared separately for each contender.
public struct Scenario {
    /// A stable identifier, used in benchmark names, filters and the guard's thresholds.
    public let id: String
    /// The row title of the comparison table.
    public let title: String
    /// How many threads perform the operations at once (the time per operation is then wall time divided by
    /// all operations of all threads).
    public let threads: Int
    private let prepare: (Contender) -> Runner?
    /// The contenders `prepare` has a runner for.
    private let contenders: Set<Contender>
    private var added: [Contender: () -> Runner] = [:]

    init(
        id: String, title: String, threads: Int = 1, contenders: Set<Contender> = [.hand, .plexus, .swinject],
        prepare: @escaping (Contender) -> Runner?
    ) {
        self.id = id
        self.title = title
        self.threads = threads
        self.contenders = contenders
        self.prepare = prepare
    }

    /// Sets the scenario up for `contender` (registrations, singletons made) and returns what performs it, or nil
    /// when the contender has no way to perform this scenario (or its runner was not attached in this program).
    public func runner(for contender: Contender) -> Runner? {
        if let prepare = added[contender] { return prepare() }
        return prepare(contender)
    }

    /// Whether ``runner(for:)`` returns a runner for `contender`, without preparing it.
    public func performs(_ contender: Contender) -> Bool {
        added[contender] != nil || contenders.contains(contender)
    }

    /// This scenario with `prepare` as the runner of `contender` (used by other targets: `PeerScenarios`).
    public func adding(_ contender: Contender, _ prepare: @escaping () -> Runner) -> Scenario {
        var copy = self
        copy.added[contender] = prepare
        return copy
    }
}

/// A prepared scenario: `run(count)` performs the operation `count` times (per thread).
public struct Runner {
    /// What differs from the other contenders, printed under the table (for example Swinject's closest feature).
    public let note: String?
    private let body: (Int) throws -> Void

    package init(note: String? = nil, _ body: @escaping (Int) throws -> Void) {
        self.note = note
        self.body = body
    }

    /// Performs the operation `count` times.
    public func run(_ count: Int) throws {
        try body(count)
    }
}

/// Performs `count` operations of `runner`; valgrind's `--toggle-collect=*profileSteadyState*` counts only this call.
/// It lives here, compiled once, so that every executable that profiles (`PlexusCompare`, `PlexusProfile`) counts
/// the same code.
@inline(never)
public func profileSteadyState(_ runner: Runner, count: Int) throws {
    try runner.run(count)
}

/// Keeps a value alive and opaque to the optimizer, so that measured work is not optimized away.
@inline(never)
@_optimize(none)
public func blackHole<T>(_: T) {}

extension Scenario {
    /// Every scenario, in table order.
    public static func all() -> [Scenario] {
        [
            .unique, .singletonHit, .accessorUnique, .accessorSingleton, .accessorParameterUnique,
            .accessorParameterSingleton, .accessorParameterSingletonNewIDs,
            .accessorMainActor, .tagged, .threeArguments, .graph,
            .registrations(10), .registrations(10_000), .collaborators8,
            .autoWiring, .autoInjection, .injected3, .noInjectedProperties(autoInject: true),
            .noInjectedProperties(autoInject: false),
            .singletonThreads(1), .singletonThreads(2), .retainedInstanceThreads(1), .retainedInstanceThreads(2),
            .ownSingletonThreads(1), .ownSingletonThreads(2),
            .asyncResolveOfSyncDefinition, .asyncSingletonFor24Tasks, .asyncAccessorSingleton,
            .register, .registerTypes, .removeAndRegister, .accessorReplaceAmongMany, .registerHighBitTags,
            .override(accessor: false, resolves: false), .override(accessor: false, resolves: true),
            .override(accessor: true, resolves: false), .override(accessor: true, resolves: true), .accessorAssign,
            .weakSingletonAndUnique, .singletonsBesideGeneralPath, .singletonsBesideForwarding,
            .readsAfterAnotherContainersRegistration,
            .readsThroughCollaborator, .accessorThroughCollaboratingContainer, .accessorOverriddenInCollaborator,
            .newContainerWithOneRegistration, .factoryKitUnique, .factoryKitCached, .factoryKitSingleton,
            .sharedRead,
            .sharedAccessorSingleton,
            .launchWarm,
            .launchWarmAccessors,
        ]
    }
}

extension Scenario {
    /// Performs `target` (`scenario/contender`, for example `unique/plexus`) once as a warm-up, then `count` times
    /// inside ``profileSteadyState(_:count:)``: what `./profile` and `./guard` run under valgrind's callgrind.
    /// Returns false, having done nothing, when no scenario of `scenarios` has that id or that contender.
    public static func profile(_ target: String, count: Int, in scenarios: [Scenario]) throws -> Bool {
        let parts = target.split(separator: "/").map(String.init)
        guard parts.count == 2, let scenario = scenarios.first(where: { $0.id == parts[0] }),
            let contender = Contender(rawValue: parts[1]), let runner = scenario.runner(for: contender)
        else { return false }
        try runner.run(1)  // first-use costs (type metadata, per-type caches) stay out of the steady state
        try profileSteadyState(runner, count: count)
        return true
    }

    /// `scenario/contender` for every pair of `scenarios` that has a runner, in table order.
    public static func pairs(of scenarios: [Scenario]) -> [String] {
        scenarios.flatMap { scenario in
            Contender.allCases.filter(scenario.performs).map { "\(scenario.id)/\($0.rawValue)" }
        }
    }
}
