import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Root: Sendable {
    let left: Branch
    let right: Branch
    init(left: Branch, right: Branch) {
        self.left = left
        self.right = right
    }
}

private final class Branch: Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

// `@unchecked Sendable`: `peer` is set by a hook inside one resolution, before the instance is shared.
private final class Leaf: @unchecked Sendable {
    let config: Config
    var peer: Peer?
    init(config: Config) { self.config = config }
}

// `@unchecked Sendable`: as `Leaf`.
private final class Peer: @unchecked Sendable {
    weak var leaf: Leaf?
}

private final class Config: Sendable {}

/// A synchronous singleton, and a synchronous `.unique` definition that needs it: resolved with `await`, they are
/// made on the calling thread, while other tasks' async resolves run in task graphs.
private final class Marker: Sendable {}
private final class Token: Sendable {
    let marker: Marker
    init(marker: Marker) { self.marker = marker }
}

private struct Flaky: Error {}

/// A deterministic source of choices for one task, so that a failing seed can be replayed.
private struct Choices {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

@Suite(.silencingPlexusLogs) struct AsyncStressTests {
    /// Tasks resolving, with and without `await`, a graph of async and sync definitions in every caching scope, with
    /// property hooks closing a cycle and factories that fail now and then: every singleton is made once, every
    /// failure leaves the container usable, and nothing hangs (a watchdog bounds the run).
    @Test(arguments: 1...4)
    func mixedAsyncAndSyncResolvesKeepEveryGuarantee(seed: UInt64) async throws {
        let container = DependencyContainer()
        let configs = Counter()
        let attempts = Counter()
        container.register(.singleton) { () async throws -> Config in
            await Task.yield()
            configs.increment()
            return Config()
        }
        container.register(.shared) { [unowned container] () async throws -> Leaf in
            if attempts.increment().isMultiple(of: 7) { throw Flaky() }
            return Leaf(config: try await container.resolve())
        }
        .resolvingProperties { container, leaf in leaf.peer = try container.resolve() }
        container.register(.shared) { Peer() }
            .resolvingProperties { container, peer in peer.leaf = try container.resolve() }
        container.register(.unique) { [unowned container] () async throws -> Branch in
            Branch(leaf: try await container.resolve())
        }
        let markers = Counter()
        container.register(.singleton) { () -> Marker in
            markers.increment()
            return Marker()
        }
        container.register(.unique) { [unowned container] () throws -> Token in Token(marker: try container.resolve()) }
        container.register(.unique) { [unowned container] () async throws -> Root in
            Root(left: try await container.resolve(), right: try await container.resolve())
        }

        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(hangLimit) * 1_000_000_000)
            Issue.record("seed \(seed) did not finish within \(hangLimit) s")
        }
        let outcomes = try await withThrowingTaskGroup(of: (roots: Int, failures: Int).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var choices = Choices(state: seed &* 1_000 &+ UInt64(task))
                    var roots = 0
                    var failures = 0
                    for _ in 0..<40 {
                        do {
                            switch choices.next(4) {
                            case 0:
                                let root: Root = try await container.resolve()
                                // One graph: both branches share the `.shared` leaf, whose hooks closed the cycle.
                                #expect(root.left.leaf === root.right.leaf)
                                #expect(root.left.leaf.peer?.leaf === root.left.leaf)
                                roots += 1
                            case 1:
                                _ = try await container.resolve() as Branch
                            case 2:
                                // Synchronous definitions with `await`: made on this thread, no task graph.
                                let first: Token = try await container.resolve()
                                let second: Token = try await container.resolve()
                                #expect(first !== second)
                                #expect(first.marker === second.marker)
                            default:
                                await Task.yield()
                                _ = try await container.resolve() as Config
                            }
                        } catch is Flaky {
                            failures += 1
                        }
                    }
                    return (roots, failures)
                }
            }
            return try await group.reduce(into: [(roots: Int, failures: Int)]()) { $0.append($1) }
        }
        watchdog.cancel()
        #expect(outcomes.count == 8)
        #expect(configs.count == 1)
        #expect(markers.count == 1)
        // After all that, the container still resolves the whole graph.
        let root: Root = try await resolveAfterFlakiness(container)
        #expect(root.left.leaf.config === root.right.leaf.config)
    }
}

/// Resolves a `Root`, retrying past the factory's planned failures.
private func resolveAfterFlakiness(_ container: DependencyContainer) async throws -> Root {
    for _ in 0..<10 {
        if let root = try? await container.resolve() as Root { return root }
    }
    return try await container.resolve()
}
