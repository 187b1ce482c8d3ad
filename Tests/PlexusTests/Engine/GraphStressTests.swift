import Foundation
import Plexus
import PlexusTesting
import Testing

// The shapes of issue 11 under contention: hooks and `didResolveDependencies` that resolve, `try?` around nested
// resolves that fail after building objects, distinct tags from runtime data through a collaborator, and deep chains
// on small stacks, all at once on several threads of one set of containers.

private struct Refused: Error {}

private final class Hooked: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `isHooked` is written by the hook before the instance is handed out.
    var isHooked = false
}

private final class Discarded: Sendable {}
private final class Unregistered: Sendable {}
private final class Doomed: Sendable {
    init(discarded: Discarded, unregistered: Unregistered) {}
}

private final class Screen: Resolvable, @unchecked Sendable {
    // `@unchecked Sendable` is safe: the properties are set during the screen's own resolution, before it is returned.
    let container: DependencyContainer
    let leaf: Hooked
    var helper: Hooked?
    var doomed: Doomed?

    init(container: DependencyContainer, leaf: Hooked) {
        self.container = container
        self.leaf = leaf
    }

    func didResolveDependencies() {
        helper = try? container.resolve(tag: "helper") as Hooked
    }
}

private final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

@Suite(.silencingPlexusLogs) struct GraphStressTests {
    @Test func mixedGraphShapesOnManyThreadsKeepEveryInvariant() throws {
        let root = DependencyContainer()
        let container = DependencyContainer()
        container.collaborate(with: root)
        let leafFactories = KeyedCounter()
        let discardedHooks = Counter()
        root.register(.singleton) { Discarded() }
            .resolvingProperties { _, _ in
                discardedHooks.increment()
                throw Refused()
            }
        for tag in 0..<8 {
            root.register(.singleton, tag: tag) { () -> Hooked in
                leafFactories.increment(tag)
                return Hooked()
            }
            .resolvingProperties { _, leaf in leaf.isHooked = true }
        }
        root.register(.unique) { Hooked() }
            .resolvingProperties { _, helper in helper.isHooked = true }
        container.register { [unowned container] () throws -> Doomed in
            Doomed(discarded: try container.resolve(), unregistered: try container.resolve())
        }
        container.register(.unique) { [unowned container] (tag: Int) throws -> Screen in
            let screen = Screen(container: container, leaf: try container.resolve(tag: tag))
            screen.doomed = try? container.resolve() as Doomed
            return screen
        }
        for level in 0..<2_000 {
            container.register(.unique, tag: "link-\(level)") { [unowned container] () throws -> Link in
                Link(next: level + 1 < 2_000 ? try container.resolve(tag: "link-\(level + 1)") as Link : nil)
            }
        }

        let problems = Collected<String>()
        // A hang detector, not a speed check: under ThreadSanitizer, beside the other suites on two busy cores, the
        // work takes minutes (about 140 s; 9 s alone in a debug build).
        let finished = runOnThreads(6, timeout: 600) { thread in
            var random = SystemRandomNumberGenerator()
            for iteration in 0..<90 {
                switch (thread + iteration) % 3 {
                case 0:
                    let tag = Int.random(in: 0..<8, using: &random)
                    do {
                        let screen = try container.resolve(arguments: tag) as Screen
                        if !screen.leaf.isHooked { problems.append("leaf returned before its hook ran") }
                        if screen.helper?.isHooked != true { problems.append("helper returned before its hook ran") }
                        if screen.doomed != nil { problems.append("a failed nested resolve returned something") }
                    } catch {
                        problems.append("screen: \(error)")
                    }
                case 1:
                    // Tags from runtime data fall back to the untagged definition in the collaborator.
                    let tag = Int.random(in: 1_000...1_000_000_000, using: &random)
                    if (try? container.resolve(tag: tag) as Hooked)?.isHooked != true {
                        problems.append("tagged helper missing or unhooked")
                    }
                default:
                    // A chain deeper than this thread's stack may hold: it resolves or throws, never crashes.
                    do {
                        _ = try container.resolve(tag: "link-\(Int.random(in: 0..<1_900, using: &random))") as Link
                    } catch ResolutionError.resolutionTooDeep {
                    } catch {
                        problems.append("chain: \(error)")
                    }
                }
            }
        }

        #expect(finished)
        #expect(problems.values.isEmpty, "\(problems.values.prefix(5))")
        #expect(discardedHooks.count == 0, "a hook of an abandoned nested resolve ran")
        #expect(leafFactories.all.values.allSatisfy { $0 == 1 }, "a singleton was constructed more than once")
    }
}

/// Counts per key, from any thread.
// `@unchecked Sendable` is safe: `counts` is only read or written while holding `lock`.
private final class KeyedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]

    func increment(_ key: Int) { lock.withLock { counts[key, default: 0] += 1 } }

    var all: [Int: Int] { lock.withLock { counts } }
}
