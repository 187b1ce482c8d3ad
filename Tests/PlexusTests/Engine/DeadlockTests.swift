import Foundation
import Plexus
import PlexusTesting
import Testing

// MARK: - Two modules that collaborate both ways

private final class LeftSingleton {
    let rightShared: RightShared
    var rightSingleton: RightSingleton?

    init(rightShared: RightShared) {
        self.rightShared = rightShared
    }
}

private final class LeftShared {
    weak var rightSingleton: RightSingleton?
}

private final class RightSingleton {
    let leftShared: LeftShared
    weak var leftSingleton: LeftSingleton?

    init(leftShared: LeftShared) {
        self.leftShared = leftShared
    }
}

private final class RightShared {
    weak var leftSingleton: LeftSingleton?
}

// MARK: - Other fixtures

private final class First {}
private final class Second {}
private final class Third {}
private final class Store {}

private final class Screen {
    let store: Store
    var presenter: Presenter?

    init(store: Store) {
        self.store = store
    }
}

private final class Presenter {
    weak var screen: Screen?
    var store: Store?
}

/// A singleton whose hook resolves `HookClosedY`, which takes it in its initializer: the README's circular pattern.
private final class HookClosedX: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `y` is written once, by the hook, before the instance is published.
    var y: HookClosedY?
}

private final class HookClosedY: Sendable {
    let x: HookClosedX
    init(x: HookClosedX) { self.x = x }
}

private func isCircularDependency(_ error: any Error) -> Bool {
    guard case ResolutionError.circularDependency(let path) = error else { return false }
    return path.count >= 2 && path.first == path.last
}

@Suite(.silencingPlexusLogs) struct DeadlockTests {
    private struct Modules {
        let left = DependencyContainer()
        let right = DependencyContainer()
        let leftSingletonCalls = Counter()
        let rightSingletonCalls = Counter()
        /// Holds the first call of each singleton's factory until the other's has started: both claims are held
        /// at once, one on each side.
        let bothFactoriesEntered = Rendezvous(2)
    }

    /// Two containers that collaborate both ways: each singleton takes the other side's shared instance in its
    /// initializer and the other side's singleton in a property hook.
    private func makeModules() -> Modules {
        let modules = Modules()
        let left = modules.left
        let right = modules.right
        left.register(.singleton) { [left] () throws -> LeftSingleton in
            if modules.leftSingletonCalls.increment() == 1 { modules.bothFactoriesEntered.arrive() }
            return LeftSingleton(rightShared: try left.resolve())
        }
        .resolvingProperties { c, singleton in singleton.rightSingleton = try c.resolve() }
        left.register { LeftShared() }
            .resolvingProperties { c, shared in shared.rightSingleton = try c.resolve() }
        right.register(.singleton) { [right] () throws -> RightSingleton in
            if modules.rightSingletonCalls.increment() == 1 { modules.bothFactoriesEntered.arrive() }
            return RightSingleton(leftShared: try right.resolve())
        }
        .resolvingProperties { c, singleton in singleton.leftSingleton = try c.resolve() }
        right.register { RightShared() }
            .resolvingProperties { c, shared in shared.leftSingleton = try c.resolve() }
        left.collaborate(with: right)
        right.collaborate(with: left)
        return modules
    }

    @Test(arguments: 1...10)
    func containersCollaboratingBothWaysResolvedFromOppositeSidesNeverDeadlock(round: Int) throws {
        let modules = makeModules()
        let lefts = Collected<ObjectIdentifier>()
        let rights = Collected<ObjectIdentifier>()
        let failures = Collected<String>()

        let finished = runOnThreads(4, timeout: 20) { index in
            do {
                let left: LeftSingleton
                let right: RightSingleton
                if index.isMultiple(of: 2) {
                    left = try modules.left.resolve()
                    right = try modules.left.resolve()
                } else {
                    right = try modules.right.resolve()
                    left = try modules.right.resolve()
                }
                if left.rightSingleton !== right || right.leftSingleton !== left {
                    failures.append("thread \(index) got an inconsistent graph")
                }
                lefts.append(ObjectIdentifier(left))
                rights.append(ObjectIdentifier(right))
            } catch {
                failures.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(Set(lefts.values).count == 1)
        #expect(Set(rights.values).count == 1)
        #expect(modules.leftSingletonCalls.count == 1)
        #expect(modules.rightSingletonCalls.count == 1)
    }

    @Test(arguments: 1...3)
    func singletonsThatNeedEachOtherThroughAHookResolveOnTwoThreadsAtOnce(round: Int) throws {
        // First's initializer takes Second (singleton); Second's initializer takes Third (shared), whose hook
        // takes First. Resolved on one thread, from either end, this graph completes. Each factory's first call
        // waits for the other's, so thread 0 holds First's claim and thread 1 Second's before either asks for more.
        let container = DependencyContainer()
        let firstCalls = Counter()
        let secondCalls = Counter()
        let bothFactoriesEntered = Rendezvous(2)
        container.register(.singleton) { [container] () throws -> First in
            if firstCalls.increment() == 1 { bothFactoriesEntered.arrive() }
            _ = try container.resolve() as Second
            return First()
        }
        container.register(.singleton) { [container] () throws -> Second in
            if secondCalls.increment() == 1 { bothFactoriesEntered.arrive() }
            _ = try container.resolve() as Third
            return Second()
        }
        container.register { Third() }
            .resolvingProperties { c, _ in _ = try c.resolve() as First }
        let failures = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            do {
                if index == 0 {
                    _ = try container.resolve() as First
                } else {
                    _ = try container.resolve() as Second
                }
            } catch {
                failures.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(firstCalls.count == 1)
        #expect(secondCalls.count == 1)
    }

    @Test(arguments: [3, 6])
    func hookClosedSingletonCycleOnManyThreadsNeverHangs(threads: Int) throws {
        // Three threads or more can leave two graphs that lent each other a value waiting in the record of waits
        // while a third follows it; each thread must return its instance or throw `circularDependency`.
        let unrelated = DependencyContainer()
        unrelated.register(.singleton) { Store() }
        for _ in 0..<300 {
            let container = DependencyContainer()
            container.register(.singleton) { HookClosedX() }
                .resolvingProperties { c, x in x.y = try c.resolve() }
            container.register(.singleton) { [unowned container] in HookClosedY(x: try container.resolve()) }
            let failures = Collected<String>()
            let finished = runOnThreads(threads, timeout: 20) { index in
                do {
                    if index % 3 == 1 {
                        _ = try container.resolve() as HookClosedY
                    } else {
                        _ = try container.resolve() as HookClosedX
                    }
                } catch {
                    if !isCircularDependency(error) { failures.append("thread \(index) threw \(error)") }
                }
            }
            try #require(finished, "threads did not finish within 20 s: hang")
            #expect(failures.values.isEmpty)
            let x: HookClosedX = try container.resolve()
            #expect(x.y?.x === x)
        }
        // The record of waits is process-wide: a hang there would stop this unrelated container too.
        #expect(runOnThreads(2, timeout: 20) { _ in _ = try? unrelated.resolve() as Store })
    }

    @Test(.timeLimit(.minutes(hangLimit / 60)))
    func hookClosedSingletonCycleResolvedByManyTasksNeverHangs() async throws {
        // The async resolve waits through the same record of waits, suspending instead of blocking.
        for _ in 0..<200 {
            let container = DependencyContainer()
            container.register(.singleton) { HookClosedX() }
                .resolvingProperties { c, x in x.y = try c.resolve() }
            container.register(.singleton) { [unowned container] in HookClosedY(x: try container.resolve()) }
            let failures = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        do {
                            if index % 3 == 1 {
                                _ = try await container.resolve() as HookClosedY
                            } else {
                                _ = try await container.resolve() as HookClosedX
                            }
                            return nil
                        } catch {
                            return isCircularDependency(error) ? nil : "task \(index) threw \(error)"
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { failures, failure in
                    if let failure { failures.append(failure) }
                }
            }
            #expect(failures.isEmpty)
            let x: HookClosedX = try await container.resolve()
            #expect(x.y?.x === x)
        }
    }

    @Test(arguments: 1...3)
    func constructorCycleBetweenSingletonsOnTwoThreadsThrowsOnBoth(round: Int) throws {
        let container = DependencyContainer()
        // Each factory waits for the other, so each thread holds one claim before asking for the other's.
        let bothFactoriesEntered = Rendezvous(2)
        container.register(.singleton) { [container] () throws -> First in
            bothFactoriesEntered.arrive()
            _ = try container.resolve() as Second
            return First()
        }
        container.register(.singleton) { [container] () throws -> Second in
            bothFactoriesEntered.arrive()
            _ = try container.resolve() as First
            return Second()
        }
        let outcomes = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            do {
                if index == 0 {
                    _ = try container.resolve() as First
                } else {
                    _ = try container.resolve() as Second
                }
                outcomes.append("thread \(index) resolved")
            } catch {
                outcomes.append(isCircularDependency(error) ? "cycle" : "thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(outcomes.values == ["cycle", "cycle"])
        // Nothing was left half-constructed: the cycle is reported again, without waiting.
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as First }
        #expect(error.map(isCircularDependency) == true)
    }

    @Test func constructorCycleAcrossCollaboratingContainersOnTwoThreadsThrowsOnBoth() throws {
        let left = DependencyContainer()
        let right = DependencyContainer()
        // Each factory waits for the other, so each thread holds one claim before asking for the other's.
        let bothFactoriesEntered = Rendezvous(2)
        left.register(.singleton) { [left] () throws -> First in
            bothFactoriesEntered.arrive()
            _ = try left.resolve() as Second
            return First()
        }
        right.register(.singleton) { [right] () throws -> Second in
            bothFactoriesEntered.arrive()
            _ = try right.resolve() as First
            return Second()
        }
        left.collaborate(with: right)
        right.collaborate(with: left)
        let outcomes = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            do {
                if index == 0 {
                    _ = try left.resolve() as First
                } else {
                    _ = try right.resolve() as Second
                }
                outcomes.append("thread \(index) resolved")
            } catch {
                outcomes.append(isCircularDependency(error) ? "cycle" : "thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(outcomes.values == ["cycle", "cycle"])
    }

    @Test func singletonLentToBreakAWaitCycleIsNotLentToLaterResolvesOfThatThread() throws {
        // Front's initializer takes Back; Back's hook takes Front; both singletons. Constructed from both ends
        // at once, thread 0 (in Front's factory) waits for Back while thread 1 (in Back's hook) waits for Front:
        // Back's value is lent to thread 0's graph to break the deadlock. That loan is for that graph only: a
        // later, separate resolve on thread 0 must wait until Back's hooks have run. Front's factory and Back's hook
        // wait for each other, so thread 1 holds Back's claim before thread 0 asks for it.
        final class Back {
            weak var front: Front?
            var isComplete = false
        }
        final class Front {
            let back: Back

            init(back: Back) {
                self.back = back
            }
        }
        let container = DependencyContainer()
        let bothConstructing = Rendezvous(2)
        container.register(.singleton) { [container] () throws -> Front in
            bothConstructing.arrive()
            return Front(back: try container.resolve())
        }
        container.register(.singleton) { Back() }
            .resolvingProperties { c, back in
                bothConstructing.arrive()
                back.front = try c.resolve()
                back.isComplete = true
            }
        let outcomes = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            do {
                if index == 0 {
                    _ = try container.resolve() as Front
                    let back: Back = try container.resolve()
                    outcomes.append(back.isComplete ? "complete" : "thread 0 later got an incomplete Back")
                } else {
                    let back: Back = try container.resolve()
                    outcomes.append(back.isComplete ? "complete" : "thread 1 got an incomplete Back")
                }
            } catch {
                outcomes.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(outcomes.values == ["complete", "complete"])
    }

    @Test func otherThreadsGetASingletonOnlyOnceItsHooksRan() throws {
        final class Slow {
            var isComplete = false
        }
        let container = DependencyContainer()
        let calls = Counter()
        let factoryRan = DispatchSemaphore(value: 0)
        let asking = DispatchSemaphore(value: 0)
        container.register(.singleton) { () -> Slow in
            calls.increment()
            factoryRan.signal()
            return Slow()
        }
        .resolvingProperties { _, slow in
            _ = asking.wait(timeout: .now() + 10)
            slow.isComplete = true
        }
        let outcomes = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            // The second thread asks while the first one runs the hook, which finishes only once it is asking.
            if index == 1 {
                _ = factoryRan.wait(timeout: .now() + 10)
                asking.signal()
            }
            do {
                let slow: Slow = try container.resolve()
                outcomes.append(slow.isComplete ? "complete" : "thread \(index) saw an incomplete singleton")
            } catch {
                outcomes.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(outcomes.values == ["complete", "complete"])
        #expect(calls.count == 1)
    }

    @Test func threadsWaitingForAFailedSingletonConstructItThemselves() throws {
        let container = DependencyContainer()
        let calls = Counter()
        let factoryRan = DispatchSemaphore(value: 0)
        let asking = DispatchSemaphore(value: 0)
        container.register(.singleton) { () throws -> Store in
            if calls.increment() == 1 {
                factoryRan.signal()
                // Fails only once the other thread is asking, so that it waits for this construction.
                _ = asking.wait(timeout: .now() + 10)
                throw CancellationError()
            }
            return Store()
        }
        let outcomes = Collected<String>()

        let finished = runOnThreads(2, timeout: 20) { index in
            if index == 1 {
                _ = factoryRan.wait(timeout: .now() + 10)
                asking.signal()
            }
            do {
                _ = try container.resolve() as Store
                outcomes.append("resolved")
            } catch is CancellationError {
                outcomes.append("failed")
            } catch {
                outcomes.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(outcomes.values.sorted() == ["failed", "resolved"])
        #expect(calls.count == 2)
    }

    @Test func singletonInASharedRootIsMadeOnceForManyThreads() throws {
        let root = DependencyContainer()
        let left = DependencyContainer()
        let right = DependencyContainer()
        let calls = Counter()
        let asking = DispatchSemaphore(value: 0)
        root.register(.singleton) { () -> Store in
            // The first construction returns only once every thread is asking, so the others find it under way.
            if calls.increment() == 1 {
                for _ in 0..<8 { _ = asking.wait(timeout: .now() + 10) }
            }
            return Store()
        }
        left.collaborate(with: right, root)
        right.collaborate(with: left, root)
        let stores = Collected<ObjectIdentifier>()
        let failures = Collected<String>()

        let finished = runOnThreads(8, timeout: 20) { index in
            asking.signal()
            do {
                let container = index.isMultiple(of: 2) ? left : right
                stores.append(ObjectIdentifier(try container.resolve() as Store))
            } catch {
                failures.append("thread \(index) threw \(error)")
            }
        }

        #expect(finished, "threads did not finish within 20 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(calls.count == 1)
        #expect(stores.values.count == 8)
        #expect(Set(stores.values).count == 1)
    }

    @Test func sharedGraphsAcrossCollaboratingContainersStayConsistentUnderLoad() throws {
        let root = DependencyContainer()
        let screens = DependencyContainer()
        let presenters = DependencyContainer()
        root.register(.singleton) { Store() }
        screens.register { [screens] in Screen(store: try screens.resolve()) }
            .resolvingProperties { c, screen in screen.presenter = try c.resolve() }
        presenters.register { Presenter() }
            .resolvingProperties { c, presenter in
                presenter.screen = try c.resolve()
                presenter.store = try c.resolve()
            }
        screens.collaborate(with: presenters, root)
        presenters.collaborate(with: screens, root)
        let failures = Collected<String>()
        let iterations = 2_000

        let finished = runOnThreads(4, timeout: 60) { index in
            for iteration in 0..<iterations {
                do {
                    if index.isMultiple(of: 2) {
                        let screen: Screen = try screens.resolve()
                        if screen.presenter?.screen !== screen || screen.presenter?.store !== screen.store {
                            failures.append("thread \(index) iteration \(iteration): inconsistent screen")
                        }
                    } else {
                        // Resolving from the other side: the screen is only held weakly by the presenter, so
                        // check it inside the graph through the store instead.
                        let presenter: Presenter = try presenters.resolve()
                        if presenter.store == nil {
                            failures.append("thread \(index) iteration \(iteration): presenter without store")
                        }
                    }
                } catch {
                    failures.append("thread \(index) iteration \(iteration) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 60 s: deadlock")
        #expect(failures.values.isEmpty)
    }

    @Test func registeringAndCollaboratingWhileOtherThreadsResolveNeverDeadlocks() throws {
        let left = DependencyContainer()
        let right = DependencyContainer()
        left.register(.singleton) { Store() }
        left.register { [left] in Screen(store: try left.resolve()) }
            .resolvingProperties { c, screen in screen.presenter = try c.resolve() }
        right.register { Presenter() }
            .resolvingProperties { c, presenter in presenter.store = try c.resolve() }
        left.collaborate(with: right)
        right.collaborate(with: left)
        let failures = Collected<String>()

        let finished = runOnThreads(4, timeout: 60) { index in
            for iteration in 0..<1_000 {
                do {
                    switch index {
                    case 0:
                        _ = try left.resolve() as Screen
                    case 1:
                        _ = try right.resolve() as Presenter
                    case 2:
                        left.register(tag: iteration) { First() }
                        right.register(.singleton, tag: iteration) { Second() }
                        _ = try left.resolve(tag: iteration) as Second
                    default:
                        left.collaborate(with: right)
                        right.collaborate(with: [left])
                        _ = try right.resolve(tag: iteration) as First
                    }
                } catch ResolutionError.definitionNotFound(let key)
                    where index == 3 && key.type == First.self
                {
                    // The registering thread may not have reached this tag yet.
                } catch {
                    failures.append("thread \(index) iteration \(iteration) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 60 s: deadlock")
        #expect(failures.values.isEmpty)
    }

    @Test func resettingTheOwnerWhileOtherThreadsResolveNeverDeadlocks() throws {
        let root = DependencyContainer()
        let child = DependencyContainer()
        root.register(.singleton) { Store() }
        child.collaborate(with: root)
        let failures = Collected<String>()
        let resolved = Counter()

        let finished = runOnThreads(3, timeout: 60) { index in
            for _ in 0..<1_000 {
                if index == 0 {
                    root.reset()
                    root.register(.singleton) { Store() }
                    continue
                }
                do {
                    _ = try child.resolve() as Store
                    resolved.increment()
                } catch ResolutionError.definitionNotFound {
                    // Between `reset` and `register` there is nothing to find.
                } catch {
                    failures.append("thread \(index) threw \(error)")
                }
            }
        }

        #expect(finished, "threads did not finish within 60 s: deadlock")
        #expect(failures.values.isEmpty)
        #expect(resolved.count > 0)
    }
}
