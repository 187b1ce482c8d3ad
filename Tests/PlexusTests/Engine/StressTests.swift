import Foundation
import Plexus
import PlexusTesting
import Testing

// Threads that really overlap on two cores: each is a `Thread` released together with the others, and each does
// enough work (thousands of operations) that they interleave, or a factory holds its first call until the other
// threads are on their way. Every wait is bounded, so a deadlock fails a test instead of hanging the run.

// MARK: - Fixtures

private final class Anchor: Sendable {}

private protocol Anchoring: AnyObject, Sendable {}

extension Anchor: Anchoring {}

private final class Volatile: Sendable {
    let anchor: Anchor

    init(anchor: Anchor) {
        self.anchor = anchor
    }
}

private final class Contended: Sendable {}

private final class SharedPart: Sendable {}

private final class Pair: Sendable {
    let first: SharedPart
    let second: SharedPart

    init(first: SharedPart, second: SharedPart) {
        self.first = first
        self.second = second
    }
}

/// What auto-wiring makes from a `Versioned`.
private final class VersionedHolder: Sendable {
    let versioned: Versioned

    init(versioned: Versioned) {
        self.versioned = versioned
    }
}

private final class Versioned: Sendable {
    let version: Int

    init(version: Int) {
        self.version = version
    }
}

private final class Hen: Sendable {
    init(egg: Ovum) {}
}

private final class Ovum: Sendable {
    init(hen: Hen) {}
}

/// Counts calls, per key; `@unchecked Sendable` is safe because `counts` is only touched under `lock`.
private final class KeyedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]

    var all: [Int: Int] { lock.withLock { counts } }

    func increment(_ key: Int) {
        lock.withLock { counts[key, default: 0] += 1 }
    }
}

/// A per-thread SplitMix64 generator, so that every run does the same mix of operations.
private struct ThreadRandom {
    private var state: UInt64

    init(seed: Int) {
        state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
    }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

private let tags: [DependencyContainer.Tag?] = [nil, "a", "b", 1]

private let singletonScopes: [ComponentScope] = [.singleton, .eagerSingleton, .weakSingleton]

/// Resolves a `Versioned` from `container`: anything but an instance some registration made (a version in
/// `0..<3_000`) or `definitionNotFound` goes into `failures`.
private func resolveVersioned(from container: DependencyContainer, into failures: Collected<String>) {
    do {
        let versioned: Versioned = try container.resolve()
        if !(0..<3_000).contains(versioned.version) { failures.append("version \(versioned.version)") }
    } catch ResolutionError.definitionNotFound {
        return
    } catch {
        failures.append("\(error)")
    }
}

@Suite(.silencingPlexusLogs) struct StressTests {
    let container = DependencyContainer()

    @Test func resolvingThroughARememberedRouteWhileTheOwnerChangesNeverCrashes() throws {
        // Readers go through remembered routes (fast path, slots not retained by the route) while a writer
        // re-registers, removes and resets the definition in the owner and re-links the chain: every resolve
        // gets a current instance or `definitionNotFound`.
        let owner = DependencyContainer()
        let middle = DependencyContainer()
        let child = DependencyContainer()
        child.collaborate(with: middle)
        middle.collaborate(with: owner)
        owner.register(.unique) { Versioned(version: 0) }
        let failures = Collected<String>()
        let finished = runOnThreads(3) { index in
            for round in 0..<3_000 {
                if index == 0 {
                    switch round % 4 {
                    case 0: owner.register(.unique) { Versioned(version: round) }
                    case 1: owner.remove(owner.register(.unique) { Versioned(version: round) })
                    case 2: owner.reset()
                    default: middle.collaborate(with: owner)
                    }
                    continue
                }
                resolveVersioned(from: child, into: failures)
            }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
        owner.register(.unique) { Versioned(version: -1) }
        #expect((try child.resolve() as Versioned).version == -1)
    }

    @Test(arguments: [ComponentScope.singleton, .unique])
    func directResolvesNeverSeeAWriteInProgress(scope: ComponentScope) throws {
        // Published singletons and `.unique` definitions take the fast path (a singleton's first construction too)
        // while a writer re-registers, resets and removes the definition. Readers must only ever get an instance some
        // registration made, or `definitionNotFound`.
        container.register(scope) { Versioned(version: 0) }
        let failures = Collected<String>()
        let finished = runReadersAndAWriter { [container] round in
            switch round % 3 {
            case 0: container.register(scope) { Versioned(version: round) }
            case 1: container.reset()
            default: container.remove(container.register(scope) { Versioned(version: round) })
            }
            container.register(scope) { Versioned(version: round) }
        } read: { [container] _ in
            resolveVersioned(from: container, into: failures)
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test(arguments: [ComponentScope.unique, .shared, .singleton])
    func autoWiredResolvesNeverSeeAWriteInProgress(scope: ComponentScope) throws {
        // Repeated auto-wired requests take a remembered local route to the definition without the container's lock
        // (its reader bias) while a writer re-registers the definition and its argument, resets and removes: every
        // resolve gets an instance some registration made, or `definitionNotFound` (wrapped when the argument is
        // missing).
        container.register(scope) { (version: Int) in Versioned(version: version) }
        container.register { 0 }
        let failures = Collected<String>()
        let finished = runReadersAndAWriter { [container] round in
            switch round % 3 {
            case 0: container.register(scope) { (version: Int) in Versioned(version: version) }
            case 1: container.reset()
            default: container.remove(container.register { round })
            }
            container.register(scope) { (version: Int) in Versioned(version: version) }
            container.register { round }
        } read: { [container] _ in
            do {
                let versioned: Versioned = try container.resolve()
                if !(0..<3_000).contains(versioned.version) { failures.append("version \(versioned.version)") }
            } catch ResolutionError.definitionNotFound {
                return
            } catch ResolutionError.autoWiringFailed(_, ResolutionError.definitionNotFound) {
                return
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func optionalRequestsKeepFindingTheirOwnDefinitionWhileOtherContainersChange() throws {
        // A `T?` request remembers a route to the container's own `T`; every registration anywhere makes that route
        // stale, possibly between the lookup that sees it and the one that follows it. A stale local route must send
        // the request back to the container's own definitions, never past them (it failed with
        // `definitionNotFound` once).
        container.register(.unique) { Versioned(version: 1) }
        let other = DependencyContainer()
        let failures = Collected<String>()
        let finished = runOnThreads(3) { [container] index in
            for round in 0..<3_000 {
                if index == 0 {
                    other.register(tag: round % 16) { Versioned(version: round) }
                    continue
                }
                do {
                    // The typed form takes the fast path; the `Any.Type` form the general one, which sees the route.
                    let versioned =
                        round.isMultiple(of: 2)
                        ? try container.resolve() as Versioned? : try container.resolve(Versioned?.self) as? Versioned
                    if versioned?.version != 1 { failures.append("got \(String(describing: versioned?.version))") }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test func firstAutoWiredRequestsRacingOnOneContainerAllGetItsDefinition() throws {
        // A container's first request that it auto-wires is decided on the fast path, under the lock that remembers
        // its route; threads race for that first request on each container, while registrations elsewhere make
        // routes stale.
        let containers = (0..<1_000).map { _ in
            let container = DependencyContainer()
            container.register(.unique) { Versioned(version: 1) }
            container.register(.unique) { (versioned: Versioned) in VersionedHolder(versioned: versioned) }
            return container
        }
        let other = DependencyContainer()
        let failures = Collected<String>()
        let finished = runOnThreads(3) { index in
            for (round, container) in containers.enumerated() {
                if index == 0 {
                    other.register(tag: round % 16) { Versioned(version: round) }
                    continue
                }
                do {
                    let holder: VersionedHolder = try container.resolve()
                    if holder.versioned.version != 1 { failures.append("got \(holder.versioned.version)") }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(finished)
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
    }

    @Test(arguments: singletonScopes)
    func singletonScopeIsConstructedExactlyOnceUnderContention(scope: ComponentScope) throws {
        let calls = Counter()
        // The first construction waits until every thread is on its way, so they all find it under way.
        let started = Rendezvous(8)
        container.register(scope) { () -> Anchor in
            if calls.increment() == 1 { started.waitForEveryone() }
            return Anchor()
        }
        .implements(Anchoring.self)
        let child = DependencyContainer()
        child.collaborate(with: container)
        // Every thread keeps what it resolved until all are done, so a weak singleton stays alive meanwhile.
        let resolved = Collected<Anchor>()
        let failures = Collected<String>()

        let finished = runOnThreads(8, started: started) { [container] index in
            for round in 0..<50 {
                do {
                    let anchor: Anchor?
                    switch (index + round) % 5 {
                    case 0: anchor = try container.resolve() as Anchor
                    case 1: anchor = try container.resolve(tag: "a") as Anchor
                    case 2: anchor = try child.resolve() as Anchor?
                    case 3: anchor = try container.resolve() as Anchoring as? Anchor
                    default: anchor = try child.resolve(Anchor.self) as? Anchor
                    }
                    guard let anchor else {
                        failures.append("thread \(index) got no Anchor")
                        continue
                    }
                    resolved.append(anchor)
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(resolved.values.count == 8 * 50)
        #expect(Set(resolved.values.map(ObjectIdentifier.init)).count == 1)
        #expect(calls.count == 1)
    }

    @Test func sharedIsConstructedOncePerGraphUnderContention() throws {
        let calls = Counter()
        container.register { () -> SharedPart in
            calls.increment()
            sched_yield()  // Widens the window for the other threads (a stress test: no order is intended).
            return SharedPart()
        }
        container.register(.unique) { [unowned container] () throws -> Pair in
            Pair(first: try container.resolve(), second: try container.resolve())
        }
        let pairs = Collected<Pair>()
        let failures = Collected<String>()

        let finished = runOnThreads(4) { [container] index in
            for _ in 0..<100 {
                do {
                    pairs.append(try container.resolve())
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(pairs.values.allSatisfy { $0.first === $0.second })
        #expect(Set(pairs.values.map { ObjectIdentifier($0.first) }).count == 400)
        #expect(calls.count == 400)
    }

    @Test(arguments: singletonScopes)
    func singletonOwnedByACollaboratorIsConstructedOnceFromEveryContainer(scope: ComponentScope) throws {
        let calls = Counter()
        // The first construction waits until every thread is on its way, so they all find it under way.
        let started = Rendezvous(8)
        container.register(scope) { () -> Contended in
            if calls.increment() == 1 { started.waitForEveryone() }
            return Contended()
        }
        let children = (0..<4).map { _ in DependencyContainer() }
        for (index, child) in children.enumerated() {
            // Children see the owner directly or through each other, in cycles.
            child.collaborate(with: children[(index + 1) % children.count], container)
        }
        let resolved = Collected<Contended>()
        let failures = Collected<String>()

        let finished = runOnThreads(8, started: started) { index in
            for _ in 0..<50 {
                do {
                    resolved.append(try children[index % children.count].resolve())
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(Set(resolved.values.map(ObjectIdentifier.init)).count == 1)
        #expect(calls.count == 1)
    }

    @Test func concurrentRegisterResolveRemoveResetCollaborateAndBootstrapNeverCrashOrDeadlock() throws {
        // A root owns one singleton that nobody changes; three modules that collaborate with the root (and, at
        // random, with each other, in cycles) are changed and resolved by six threads at once.
        let root = DependencyContainer()
        let anchorCalls = Counter()
        root.register(.singleton) { () -> Anchor in
            anchorCalls.increment()
            sched_yield()  // Widens the window for the other threads (a stress test: no order is intended).
            return Anchor()
        }
        let modules = (0..<3).map { _ in DependencyContainer() }
        for module in modules { module.collaborate(with: root) }
        let definitions = Collected<
            (module: Int, definition: Definition<Volatile, Void>, tag: DependencyContainer.Tag?)
        >()
        let anchors = Collected<ObjectIdentifier>()
        let failures = Collected<String>()
        let operations = Counter()

        let finished = runOnThreads(6) { index in
            var random = ThreadRandom(seed: index + 1)
            for _ in 0..<2500 {
                let module = modules[random.below(modules.count)]
                let tag = tags[random.below(tags.count)]
                operations.increment()
                do {
                    switch random.below(100) {
                    case ..<25:
                        let scope = ComponentScope.allCases[random.below(ComponentScope.allCases.count)]
                        let definition = module.register(scope, tag: tag) { [unowned module] () throws -> Volatile in
                            Volatile(anchor: try module.resolve())
                        }
                        definitions.append((modules.firstIndex { $0 === module }!, definition, tag))
                    case ..<70:
                        do {
                            let volatile: Volatile = try module.resolve(tag: tag)
                            anchors.append(ObjectIdentifier(volatile.anchor))
                        } catch ResolutionError.definitionNotFound(let key) where key.type == Volatile.self {
                            // Another thread removed it or reset the module: a defined outcome.
                        }
                    case ..<80:
                        anchors.append(ObjectIdentifier(try module.resolve() as Anchor))
                    case ..<88:
                        if let entry = definitions.element(wrapping: random.below(1 << 20)) {
                            modules[entry.module].remove(entry.definition, tag: entry.tag)
                        }
                    case ..<90:
                        module.reset()
                    case ..<97:
                        module.collaborate(
                            with: modules[random.below(modules.count)], modules[random.below(modules.count)])
                    default:
                        try module.bootstrap()
                    }
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(operations.count == 6 * 2500)
        #expect(anchors.values.count > 1000, "too few successful resolves to mean anything")
        #expect(Set(anchors.values).count == 1, "the root's singleton was constructed more than once")
        #expect(anchorCalls.count == 1)
        // Every module still works.
        for module in modules {
            module.register(tag: "after") { [unowned module] () throws -> Volatile in
                Volatile(anchor: try module.resolve())
            }
            #expect(try module.resolve(tag: "after") as Volatile? != nil)
        }
    }

    @Test(arguments: singletonScopes)
    func reRegisteringWhileOtherThreadsResolveConstructsEachDefinitionAtMostOnce(scope: ComponentScope) throws {
        let calls = KeyedCounter()
        @Sendable func register(version: Int) {
            container.register(scope) { () -> Versioned in
                calls.increment(version)
                sched_yield()  // Widens the window for the re-registering thread (no order is intended).
                return Versioned(version: version)
            }
        }
        register(version: 0)
        let seen = Collected<Versioned>()
        let failures = Collected<String>()

        let finished = runOnThreads(4) { [container] index in
            for round in 0..<300 {
                if index == 0 {
                    if round.isMultiple(of: 3) { register(version: round / 3 + 1) }
                    continue
                }
                do {
                    seen.append(try container.resolve())
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(calls.all.values.allSatisfy { $0 == 1 }, "a definition was constructed more than once")
        // Two resolves that got the same version got the same instance.
        var instances: [Int: ObjectIdentifier] = [:]
        for versioned in seen.values {
            #expect(instances[versioned.version, default: ObjectIdentifier(versioned)] == ObjectIdentifier(versioned))
            instances[versioned.version] = ObjectIdentifier(versioned)
        }
        let latest: Versioned = try container.resolve()
        #expect(latest.version == 100)
    }

    @Test(arguments: singletonScopes, singletonScopes)
    func constructorCycleBetweenSingletonsFirstResolvedOnTwoThreadsThrowsOnBoth(
        hen henScope: ComponentScope, ovum ovumScope: ComponentScope
    ) throws {
        // Each factory waits for the other, so each thread holds one claim before asking for the other's.
        let bothFactoriesEntered = Rendezvous(2)
        container.register(henScope) { [unowned container] () throws -> Hen in
            bothFactoriesEntered.arrive()
            return Hen(egg: try container.resolve())
        }
        container.register(ovumScope) { [unowned container] () throws -> Ovum in
            bothFactoriesEntered.arrive()
            return Ovum(hen: try container.resolve())
        }
        let outcomes = Collected<String>()

        let finished = runOnThreads(2) { [container] index in
            do {
                if index == 0 {
                    _ = try container.resolve() as Hen
                } else {
                    _ = try container.resolve() as Ovum
                }
                outcomes.append("thread \(index) resolved a cycle")
            } catch ResolutionError.circularDependency(let path) {
                let names = path.map { String(describing: $0.type) }
                let expected = index == 0 ? ["Hen", "Ovum", "Hen"] : ["Ovum", "Hen", "Ovum"]
                outcomes.append(names == expected ? "cycle" : "thread \(index) reported \(names)")
            } catch {
                outcomes.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 30 s: deadlock")
        #expect(outcomes.values == ["cycle", "cycle"])
        // Nothing is left half-constructed: the cycle is reported again at once, from either end.
        #expect(throws: ResolutionError.self) { try container.resolve() as Hen }
        #expect(throws: ResolutionError.self) { try container.resolve() as Ovum }
    }
}
