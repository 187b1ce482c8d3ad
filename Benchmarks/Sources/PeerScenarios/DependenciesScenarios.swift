import Dependencies
import Scenarios

// The swift-dependencies contender: the same objects read through `@Dependency`, the way a feature model that
// holds `@Dependency(\.x) var x` reads them. swift-dependencies caches each key's live value once per set of
// dependency values, so a dependency that makes a new object per use is a client whose closure constructs it (the
// library's own idiom for factories); a shared instance is a lazily stored `static let liveValue`.
//
// Scenarios where swift-dependencies has no counterpart get no runner: tags, collaborating containers, a graph with
// a per-resolution scope and a cycle, auto-wiring and auto-injection, a large container.

extension Scenario {
    /// Every scenario, with the swift-dependencies runner attached where it applies.
    public static func allWithPeers() -> [Scenario] {
        all().map { scenario in
            switch scenario.id {
            case "unique", "accessor-unique":
                scenario.adding(.dependencies, uniqueRead)
            case "singleton", "accessor-singleton":
                scenario.adding(.dependencies, singletonRead)
            case "arguments":
                scenario.adding(.dependencies, argumentsRead)
            case "threads-1":
                scenario.adding(.dependencies) { singletonReads(threads: 1) }
            case "threads-2":
                scenario.adding(.dependencies) { singletonReads(threads: 2) }
            default:
                scenario
            }
        }
    }
}

/// `unique`: the `@Dependency` read of a client whose live value constructs a new `Leaf` per call.
private func uniqueRead() -> Runner {
    let consumer = LeafConsumer()
    return Runner(note: "`@Dependency` read of a client, then its closure makes the object") { count in
        for _ in 0..<count { blackHole(consumer.makeLeaf.make()) }
    }
}

/// `singleton`: the `@Dependency` read of a lazily stored shared instance, already made.
private func singletonRead() -> Runner {
    let consumer = ApiConsumer()
    blackHole(consumer.api)
    return Runner(note: "`@Dependency` read of a `static let liveValue`") { count in
        for _ in 0..<count { blackHole(consumer.api) }
    }
}

/// `arguments`: the `@Dependency` read of a client whose closure takes the three runtime arguments.
private func argumentsRead() -> Runner {
    let consumer = CellConsumer()
    return Runner { count in
        for index in 0..<count { blackHole(consumer.makeCell.make(index, "title", 1.5)) }
    }
}

/// `threads-N`: `threads` threads reading the shared instance through one `@Dependency` each.
private func singletonReads(threads: Int) -> Runner {
    blackHole(ApiConsumer().api)
    let workers = Workers(count: threads) { count in
        let consumer = ApiConsumer()
        for _ in 0..<count { blackHole(consumer.api) }
    }
    return Runner(workers.run)
}

// MARK: - Dependency keys and values

/// Makes a new ``Leaf`` per call.
struct LeafClient: Sendable {
    var make: @Sendable () -> Leaf
}

/// Makes a new ``Cell`` from its three runtime arguments.
struct CellClient: Sendable {
    var make: @Sendable (Int, String, Double) -> Cell
}

enum LeafClientKey: DependencyKey {
    static let liveValue = LeafClient { Leaf() }
}

enum CellClientKey: DependencyKey {
    static let liveValue = CellClient { id, title, score in Cell(id: id, title: title, score: score) }
}

enum ApiClientKey: DependencyKey {
    static let liveValue = ApiClient()
}

extension DependencyValues {
    var makeLeaf: LeafClient {
        get { self[LeafClientKey.self] }
        set { self[LeafClientKey.self] = newValue }
    }

    var makeCell: CellClient {
        get { self[CellClientKey.self] }
        set { self[CellClientKey.self] = newValue }
    }

    var apiClient: ApiClient {
        get { self[ApiClientKey.self] }
        set { self[ApiClientKey.self] = newValue }
    }
}

// MARK: - Consumers: what holds the `@Dependency` properties

private struct LeafConsumer {
    @Dependency(\.makeLeaf) var makeLeaf
}

private struct CellConsumer {
    @Dependency(\.makeCell) var makeCell
}

private struct ApiConsumer {
    @Dependency(\.apiClient) var api
}
