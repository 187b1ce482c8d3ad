/// Who performs a scenario: the same objects built by hand, by Swinject, or by Plexus.
public enum Contender: String, CaseIterable, Sendable {
    case hand
    case swinject
    case plexus

    /// The column title.
    public var title: String {
        switch self {
        case .hand: "hand-written"
        case .swinject: "Swinject"
        case .plexus: "Plexus"
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
    private let prepare: (Contender) -> Runner

    init(id: String, title: String, threads: Int = 1, prepare: @escaping (Contender) -> Runner) {
        self.id = id
        self.title = title
        self.threads = threads
        self.prepare = prepare
    }

    /// Sets the scenario up for `contender` (registrations, singletons made) and returns what performs it.
    public func runner(for contender: Contender) -> Runner {
        prepare(contender)
    }
}

/// A prepared scenario: `run(count)` performs the operation `count` times (per thread).
public struct Runner {
    /// What differs from the other contenders, printed under the table (for example Swinject's closest feature).
    public let note: String?
    private let body: (Int) throws -> Void

    init(note: String? = nil, _ body: @escaping (Int) throws -> Void) {
        self.note = note
        self.body = body
    }

    /// Performs the operation `count` times.
    public func run(_ count: Int) throws {
        try body(count)
    }
}

/// Keeps a value alive and opaque to the optimizer, so that measured work is not optimized away.
@inline(never)
@_optimize(none)
public func blackHole<T>(_: T) {}

extension Scenario {
    /// Every scenario, in table order.
    public static func all() -> [Scenario] {
        [
            .unique, .singletonHit, .tagged, .threeArguments, .graph,
            .registrations(10), .registrations(10_000), .collaborators8,
            .autoWiring, .autoInjection, .noInjectedProperties(autoInject: true),
            .noInjectedProperties(autoInject: false),
            .singletonThreads(1), .singletonThreads(2),
        ]
    }
}
