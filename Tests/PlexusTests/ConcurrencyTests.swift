import Dispatch
import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject, Sendable {}
private final class Heavy: Service, Sendable {}
private final class Light: Sendable {}
private final class Tagged: Sendable {
    let tag: String
    init(tag: String) { self.tag = tag }
}
private final class Outer: Sendable {
    let inner: Heavy
    init(inner: Heavy) { self.inner = inner }
}
private final class Pair: Sendable {
    let first: Heavy
    let second: Heavy
    init(first: Heavy, second: Heavy) {
        self.first = first
        self.second = second
    }
}
private final class Ping: Sendable {
    let pong: Pong
    init(pong: Pong) { self.pong = pong }
}
private final class Pong: Sendable {
    let ping: Ping
    init(ping: Ping) { self.ping = ping }
}
private final class FromA: Sendable {
    let fromB: FromB?
    init(fromB: FromB?) { self.fromB = fromB }
}
private final class FromB: Sendable {}
private final class OtherFromB: Sendable {
    let fromA: FromA
    init(fromA: FromA) { self.fromA = fromA }
}

private enum Failure: Error { case firstAttempt }

/// A thread-safe bag that keeps what threads put in it (and so keeps instances alive).
private final class Bag<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    var elements: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
    func append(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        items.append(element)
    }
}

/// Runs `body` on `count` threads that start together; `false` if they did not all finish within `timeout`. Each
/// thread checks in at `started` (if given) just before `body`, so that a factory can hold its first call until every
/// thread is on its way (`started.waitForEveryone()`): they all find that construction under way.
private func onThreads(
    _ count: Int, timeout: Double = 30, started: Rendezvous? = nil, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let group = DispatchGroup()
    let ready = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        let thread = Thread(
            block: quiet {
                ready.signal()
                start.wait()
                started?.checkIn()
                body(index)
                group.leave()
            })
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + timeout) == .success
}

/// Runs `operation` in a detached task; `false` if it did not finish within `timeout`. The wait blocks a dispatch
/// thread, never the cooperative pool.
/// The timeout is generous because tasks run on the cooperative pool, which has one thread per core (two on CI) and is
/// shared with every other suite running in parallel, some of which block their thread while they wait for their own
/// threads: a task group here can wait a long time for a free thread without anything being wrong. Under
/// AddressSanitizer on two cores, `tasksRegisterAndResolveConcurrently` took 125 to 182 seconds among the other suites
/// (0.003 alone): ten minutes still fails a deadlock, well inside CI's limit for the step.
private func completes(within timeout: Double = 600, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await operation()
        done.signal()
    }
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: done.wait(timeout: .now() + timeout) == .success)
        }
    }
}

private func identities(_ objects: [AnyObject]) -> Set<ObjectIdentifier> {
    Set(objects.map(ObjectIdentifier.init))
}

private let cachingScopes: [ComponentScope] = [.singleton, .eagerSingleton, .weakSingleton, .cached]

@Suite(.silencingPlexusLogs) struct ConcurrencyTests {
    let container = DependencyContainer()
    private let counter = Counter()

    /// Registers `Heavy`, whose first construction waits until every thread of `started` is on its way.
    private func registerHeavy(_ scope: ComponentScope, tag: String? = nil, started: Rendezvous? = nil) {
        let counter = counter
        container.register(scope, tag: tag) { () -> Heavy in
            if counter.increment() == 1 { started?.waitForEveryone() }
            return Heavy()
        }
    }

    @Test(arguments: cachingScopes)
    func cachingScopeConstructsExactlyOnceUnderContention(scope: ComponentScope) {
        let started = Rendezvous(16)
        registerHeavy(scope, started: started)
        let container = container
        let resolved = Bag<AnyObject>()
        let failures = Counter()
        let finished = onThreads(16, started: started) { _ in
            do {
                resolved.append(try container.resolve() as Heavy)
            } catch {
                failures.increment()
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
        #expect(counter.count == 1)
        #expect(resolved.elements.count == 16)
        #expect(identities(resolved.elements).count == 1)
    }

    @Test(arguments: cachingScopes)
    func cachingScopeConstructsOnceWhenReachedThroughTagsOptionalsAndForwarding(scope: ComponentScope) {
        let counter = counter
        let started = Rendezvous(12)
        container.register(scope) { () -> Heavy in
            if counter.increment() == 1 { started.waitForEveryone() }
            return Heavy()
        }
        .implements(Service.self)
        let container = container
        let resolved = Bag<AnyObject>()
        let finished = onThreads(12, started: started) { index in
            let instance: AnyObject?
            switch index % 4 {
            case 0: instance = try? container.resolve() as Heavy
            case 1: instance = try? container.resolve(tag: "t\(index)") as Heavy
            case 2: instance = try? container.resolve() as Heavy?
            default: instance = try? container.resolve() as Service
            }
            if let instance { resolved.append(instance) }
        }
        #expect(finished)
        #expect(resolved.elements.count == 12)
        #expect(identities(resolved.elements).count == 1)
        #expect(counter.count == 1)
    }

    @Test func nestedSingletonsAreEachConstructedOnceUnderContention() {
        let started = Rendezvous(12)
        registerHeavy(.singleton, started: started)
        let outerCount = Counter()
        container.register(.singleton) { [container] () -> Outer in
            if outerCount.increment() == 1 { started.waitForEveryone() }
            return Outer(inner: try container.resolve())
        }
        let container = container
        let outers = Bag<Outer>()
        let inners = Bag<AnyObject>()
        let finished = onThreads(12, started: started) { index in
            if index.isMultiple(of: 2) {
                if let outer = try? container.resolve() as Outer { outers.append(outer) }
            } else {
                if let inner = try? container.resolve() as Heavy { inners.append(inner) }
            }
        }
        #expect(finished)
        #expect(outerCount.count == 1)
        #expect(counter.count == 1)
        #expect(outers.elements.count == 6)
        #expect(identities(outers.elements.map(\.inner) + inners.elements).count == 1)
    }

    @Test func failedConstructionUnderContentionIsRetriedOnceAndNeverDuplicated() {
        let attempts = counter
        let started = Rendezvous(10)
        container.register(.singleton) { () throws -> Heavy in
            let attempt = attempts.increment()
            if attempt == 1 {
                started.waitForEveryone()
                throw Failure.firstAttempt
            }
            return Heavy()
        }
        let container = container
        let resolved = Bag<AnyObject>()
        let failures = Counter()
        let finished = onThreads(10, started: started) { _ in
            do {
                resolved.append(try container.resolve() as Heavy)
            } catch {
                failures.increment()
            }
        }
        #expect(finished)
        #expect(attempts.count == 2, "one failed attempt, then exactly one construction")
        #expect(failures.count == 1)
        #expect(resolved.elements.count == 9)
        #expect(identities(resolved.elements).count == 1)
    }

    @Test func sharedMakesOneInstancePerGraphOnEveryThread() {
        registerHeavy(.shared)
        container.register(.unique) { [container] in
            Pair(first: try container.resolve(), second: try container.resolve())
        }
        let container = container
        let pairs = Bag<Pair>()
        let finished = onThreads(8) { _ in
            if let pair = try? container.resolve() as Pair { pairs.append(pair) }
        }
        #expect(finished)
        #expect(pairs.elements.count == 8)
        #expect(pairs.elements.allSatisfy { $0.first === $0.second })
        #expect(identities(pairs.elements.map(\.first)).count == 8)
        #expect(counter.count == 8)
    }

    @Test func uniqueCallsTheFactoryForEveryResolveOnEveryThread() {
        let counter = counter
        container.register(.unique) { () -> Light in
            counter.increment()
            return Light()
        }
        let container = container
        let failures = Counter()
        let finished = onThreads(8) { _ in
            for _ in 0..<200 where (try? container.resolve() as Light) == nil {
                failures.increment()
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
        #expect(counter.count == 1600)
    }

    @Test func registeringResolvingAndRemovingConcurrently() {
        container.register(.singleton) { Light() }
        let container = container
        let stable = Bag<AnyObject>()
        let failures = Bag<String>()
        let finished = onThreads(12) { index in
            for round in 0..<150 {
                switch index % 3 {
                case 0:
                    let tag = "t\(index)-\(round)"
                    let definition = container.register(.singleton, tag: tag) { Tagged(tag: tag) }
                    if (try? container.resolve(tag: tag) as Tagged)?.tag != tag {
                        failures.append("resolve \(tag)")
                    }
                    container.remove(definition, tag: tag)
                    if (try? container.resolve(tag: tag) as Tagged) != nil {
                        failures.append("removed \(tag) still resolves")
                    }
                case 1:
                    if let light = try? container.resolve() as Light {
                        if round == 0 { stable.append(light) }
                    } else {
                        failures.append("stable singleton")
                    }
                default:
                    container.register(.unique, tag: index) { Tagged(tag: "\(index)") }
                    if (try? container.resolve(tag: index) as Tagged) == nil {
                        failures.append("override \(index)")
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.elements.isEmpty, "\(failures.elements.prefix(5))")
        #expect(identities(stable.elements).count == 1)
    }

    @Test func overridingWhileResolvingAlwaysFindsADefinition() {
        container.register(.singleton) { Tagged(tag: "initial") }
        let container = container
        let failures = Counter()
        let finished = onThreads(8) { index in
            for round in 0..<200 {
                if index < 2 {
                    container.register(.singleton) { Tagged(tag: "\(index)-\(round)") }
                } else if (try? container.resolve() as Tagged) == nil {
                    failures.increment()
                }
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
    }

    @Test func bootstrapAndResolveRacingCreateEachEagerSingletonOnce() {
        let started = Rendezvous(10)
        registerHeavy(.eagerSingleton, started: started)
        let lightCount = Counter()
        container.register(.eagerSingleton) { () -> Light in
            if lightCount.increment() == 1 { started.waitForEveryone() }
            return Light()
        }
        let container = container
        let heavies = Bag<AnyObject>()
        let failures = Counter()
        let finished = onThreads(10, started: started) { index in
            do {
                if index.isMultiple(of: 2) {
                    try container.bootstrap()
                } else {
                    heavies.append(try container.resolve() as Heavy)
                }
            } catch {
                failures.increment()
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
        #expect(counter.count == 1)
        #expect(lightCount.count == 1)
        #expect(container.isBootstrapped)
        #expect(identities(heavies.elements + [(try? container.resolve() as Heavy) ?? Light()]).count == 1)
    }

    @Test func resetWhileResolvingNeitherCrashesNorHangs() throws {
        registerHeavy(.singleton)
        let container = container
        let unexpected = Counter()
        let counter = counter
        let finished = onThreads(8) { index in
            for _ in 0..<20 {
                if index == 0 {
                    container.reset()
                    container.register(.singleton) { () -> Heavy in
                        counter.increment()
                        // Gives the resetting thread a chance to run mid-construction (a stress test: no order
                        // is intended).
                        sched_yield()
                        return Heavy()
                    }
                } else {
                    do {
                        _ = try container.resolve() as Heavy
                    } catch ResolutionError.definitionNotFound {
                        // Between reset and register nothing is registered.
                    } catch {
                        unexpected.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(unexpected.count == 0)
        #expect(try container.resolve() as Heavy === (try container.resolve() as Heavy))
    }

    @Test func overrideWhileTheOldSingletonIsUnderConstructionLeavesNoStaleInstance() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        container.register(.singleton) { () -> Tagged in
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
            return Tagged(tag: "old")
        }
        let container = container
        let old = Bag<String>()
        let group = DispatchGroup()
        group.enter()
        Thread(
            block: quiet {
                if let tagged = try? container.resolve() as Tagged { old.append(tagged.tag) }
                group.leave()
            }
        )
        .start()
        #expect(entered.wait(timeout: .now() + 10) == .success)
        container.register(.singleton) { Tagged(tag: "new") }
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(old.elements == ["old"], "the resolve that started first finishes with the old definition")
        #expect((try? container.resolve() as Tagged)?.tag == "new")
    }

    @Test func resetWhileASingletonIsUnderConstructionLeavesNoStaleInstance() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        container.register(.singleton) { () -> Tagged in
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
            return Tagged(tag: "old")
        }
        let container = container
        let group = DispatchGroup()
        group.enter()
        Thread(
            block: quiet {
                _ = try? container.resolve() as Tagged
                group.leave()
            }
        )
        .start()
        #expect(entered.wait(timeout: .now() + 10) == .success)
        container.reset()
        container.register(.singleton) { Tagged(tag: "new") }
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect((try? container.resolve() as Tagged)?.tag == "new")
    }

    @Test func constructorCycleAcrossThreadsThrowsInsteadOfDeadlocking() {
        // Each factory's first call waits for the other's, so two threads each hold one claim before asking for
        // the other; later calls pass straight through.
        let bothFactoriesEntered = Rendezvous(2)
        container.register(.singleton) { [container] () -> Ping in
            bothFactoriesEntered.arrive()
            return Ping(pong: try container.resolve())
        }
        container.register(.singleton) { [container] () -> Pong in
            bothFactoriesEntered.arrive()
            return Pong(ping: try container.resolve())
        }
        let container = container
        let outcomes = Bag<String>()
        let finished = onThreads(4) { index in
            do {
                if index.isMultiple(of: 2) {
                    _ = try container.resolve() as Ping
                } else {
                    _ = try container.resolve() as Pong
                }
                outcomes.append("resolved")
            } catch ResolutionError.circularDependency {
                outcomes.append("cycle")
            } catch {
                outcomes.append("\(error)")
            }
        }
        #expect(finished, "a constructor cycle across threads must not deadlock")
        #expect(outcomes.elements == Array(repeating: "cycle", count: 4))
    }

    @Test func containersCollaboratingBothWaysResolvedFromOppositeSidesNeverDeadlock() {
        let a = DependencyContainer()
        let b = DependencyContainer()
        a.collaborate(with: b)
        b.collaborate(with: a)
        let aCount = Counter()
        let bCount = Counter()
        let started = Rendezvous(12)
        a.register(.singleton) { [a] () -> FromA in
            if aCount.increment() == 1 { started.waitForEveryone() }
            return FromA(fromB: try a.resolve())
        }
        b.register(.singleton) { () -> FromB in
            if bCount.increment() == 1 { started.waitForEveryone() }
            return FromB()
        }
        b.register(.unique) { [b] in OtherFromB(fromA: try b.resolve()) }
        let fromAs = Bag<AnyObject>()
        let fromBs = Bag<AnyObject>()
        let failures = Counter()
        let finished = onThreads(12, started: started) { index in
            do {
                switch index % 4 {
                case 0: fromAs.append(try b.resolve() as FromA)
                case 1: fromBs.append(try a.resolve() as FromB)
                case 2: fromAs.append((try b.resolve() as OtherFromB).fromA)
                default: fromBs.append(try b.resolve() as FromB)
                }
            } catch {
                failures.increment()
            }
        }
        #expect(finished, "collaborating containers must not deadlock")
        #expect(failures.count == 0)
        #expect(aCount.count == 1)
        #expect(bCount.count == 1)
        #expect(identities(fromAs.elements).count == 1)
        let fromB = fromAs.elements.first.flatMap { ($0 as? FromA)?.fromB }
        #expect(identities(fromBs.elements + (fromB.map { [$0] } ?? [])).count == 1)
    }

    @Test func eachThreadSeesItsOwnContext() {
        let container = container
        let entered = Counter()
        // The first call on each thread waits until every thread is inside one: all eight contexts are set at once.
        let allInFactories = Rendezvous(8)
        container.register(.unique) { [container] () -> Tagged in
            if entered.increment() <= 8 { allInFactories.arrive() }
            let tag = container.context?.tag
            return Tagged(tag: tag.map { "\($0)" } ?? "none")
        }
        let mismatches = Counter()
        let finished = onThreads(8) { index in
            for round in 0..<10 {
                let tag = "thread-\(index)-\(round)"
                let tagged = try? container.resolve(tag: tag) as Tagged
                if tagged?.tag != "\"\(tag)\"" { mismatches.increment() }
            }
        }
        #expect(finished)
        #expect(mismatches.count == 0)
    }

    @Test func taskGroupResolvesASingletonOnce() async {
        let counter = counter
        // The construction blocks its thread until a second task has started (each task blocks a thread of the
        // cooperative pool, so waiting for all fifty could not finish): that task finds it under way.
        let twoStarted = Rendezvous(2)
        container.register(.singleton) { () -> Heavy in
            if counter.increment() == 1 { twoStarted.waitForEveryone() }
            return Heavy()
        }
        let container = container
        let ids = Bag<ObjectIdentifier>()
        let finished = await completes {
            await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        twoStarted.checkIn()
                        return (try? container.resolve() as Heavy).map(ObjectIdentifier.init)
                    }
                }
                for await id in group {
                    if let id { ids.append(id) }
                }
            }
        }
        #expect(finished)
        #expect(ids.elements.count == 50)
        #expect(Set(ids.elements).count == 1)
        #expect(counter.count == 1)
    }

    @Test func tasksRegisterAndResolveConcurrently() async {
        let container = container
        let failures = Counter()
        let finished = await completes {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        container.register(.singleton, tag: index) { Tagged(tag: "\(index)") }
                        for _ in 0..<20 {
                            if (try? container.resolve(tag: index) as Tagged)?.tag != "\(index)" {
                                failures.increment()
                            }
                        }
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
        for index in 0..<40 {
            #expect((try? await container.resolve(tag: index) as Tagged)?.tag == "\(index)")
        }
    }

    @Test func containerIsUsableFromManyTasksWithEveryScope() async {
        for scope in ComponentScope.allCases {
            container.register(scope, tag: "\(scope)") { Light() }
        }
        let container = container
        let failures = Counter()
        let finished = await completes {
            await withTaskGroup(of: Bool.self) { group in
                for index in 0..<100 {
                    let scope = ComponentScope.allCases[index % ComponentScope.allCases.count]
                    group.addTask { (try? container.resolve(tag: "\(scope)") as Light) != nil }
                }
                for await succeeded in group where !succeeded {
                    failures.increment()
                }
            }
        }
        #expect(finished)
        #expect(failures.count == 0)
    }
}
