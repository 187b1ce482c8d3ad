import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject, Sendable {}
private protocol Named: AnyObject, Sendable {}
private final class Dependency: Service, Named, Sendable {}

/// Resolves two `Dependency`s in one resolution graph.
private final class Pair: Sendable {
    let first: Dependency
    let second: Dependency
    init(first: Dependency, second: Dependency) {
        self.first = first
        self.second = second
    }
}

/// Holds a `Dependency` only weakly, so that only the container can keep it alive.
private final class Observer: @unchecked Sendable {
    weak var dependency: Dependency?
    init(_ dependency: Dependency) { self.dependency = dependency }
}

/// Two observers resolved in one graph, plus whether they saw the same instance while the graph ran.
private final class ObserverPair: Sendable {
    let first: Observer
    let second: Observer
    let sawSameInstance: Bool
    init(first: Observer, second: Observer) {
        self.first = first
        self.second = second
        sawSameInstance = first.dependency != nil && first.dependency === second.dependency
    }
}

/// A weak reference that a factory may set while a test reads it.
private final class WeakBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: AnyObject?
    var object: AnyObject? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}

private struct Weak {
    weak var object: AnyObject?
}

private enum Failure: Error { case planned }

@inline(never)
private func resolveWeakly(_ container: DependencyContainer) throws -> Weak {
    let instance: Dependency = try container.resolve()
    return Weak(object: instance)
}

private let cachingScopes: [ComponentScope] = [.singleton, .eagerSingleton, .weakSingleton]

@Suite(.silencingPlexusLogs) struct ScopeTests {
    let container = DependencyContainer()
    private let counter = Counter()

    private func registerDependency(_ scope: ComponentScope, tag: String? = nil) {
        let counter = counter
        container.register(scope, tag: tag) { () -> Dependency in
            counter.increment()
            return Dependency()
        }
    }

    private func registerPair() {
        container.register(.unique) { [container] in
            Pair(first: try container.resolve(), second: try container.resolve())
        }
    }

    /// Whether `scope` reuses an instance within one resolution graph.
    private static func reusesWithinGraph(_ scope: ComponentScope) -> Bool { scope != .unique }

    /// Whether `scope` reuses an instance across resolution graphs (while it is held).
    private static func reusesAcrossGraphs(_ scope: ComponentScope) -> Bool {
        scope == .singleton || scope == .eagerSingleton || scope == .weakSingleton || scope == .cached
    }

    @Test(arguments: ComponentScope.allCases)
    func identityWithinOneGraph(scope: ComponentScope) throws {
        registerDependency(scope)
        registerPair()
        let pair: Pair = try container.resolve()
        if Self.reusesWithinGraph(scope) {
            #expect(pair.first === pair.second)
            #expect(counter.count == 1)
        } else {
            #expect(pair.first !== pair.second)
            #expect(counter.count == 2)
        }
    }

    @Test(arguments: ComponentScope.allCases)
    func identityAcrossGraphs(scope: ComponentScope) throws {
        registerDependency(scope)
        let first: Dependency = try container.resolve()
        let second: Dependency = try container.resolve()
        if Self.reusesAcrossGraphs(scope) {
            #expect(first === second)
        } else {
            #expect(first !== second)
        }
    }

    @Test(arguments: ComponentScope.allCases)
    func factoryCallsAcrossThreeGraphs(scope: ComponentScope) throws {
        registerDependency(scope)
        let held: [Dependency] = try (0..<3).map { _ in try container.resolve() }
        #expect(counter.count == (Self.reusesAcrossGraphs(scope) ? 1 : 3))
        #expect(held.count == 3)
    }

    @Test(arguments: ComponentScope.allCases)
    func pairsFromSeparateGraphs(scope: ComponentScope) throws {
        registerDependency(scope)
        registerPair()
        let a: Pair = try container.resolve()
        let b: Pair = try container.resolve()
        #expect((a.first === b.first) == Self.reusesAcrossGraphs(scope))
    }

    @Test(arguments: ComponentScope.allCases)
    func factoryIsNotCalledBeforeTheFirstResolve(scope: ComponentScope) throws {
        registerDependency(scope)
        #expect(counter.count == 0)
        _ = try container.resolve() as Dependency
        #expect(counter.count == 1)
    }

    @Test func sharedIsReleasedWhenTheOutermostResolveReturns() throws {
        container.register(.shared) { Dependency() }
        container.register(.unique) { [container] in Observer(try container.resolve()) }
        container.register(.unique) { [container] in
            ObserverPair(first: try container.resolve(), second: try container.resolve())
        }
        let pair: ObserverPair = try container.resolve()
        #expect(pair.sawSameInstance, "the graph keeps its shared instance while it runs")
        #expect(pair.first.dependency == nil, "nothing keeps the shared instance after the graph")
    }

    @Test func sharedIsReleasedWhenTheOutermostResolveThrows() throws {
        let box = WeakBox()
        container.register(.shared) { Dependency() }
        container.register(.unique) { [container] () -> Pair in
            let dependency: Dependency = try container.resolve()
            box.object = dependency
            throw Failure.planned
        }
        #expect(throws: Failure.planned) { _ = try container.resolve() as Pair }
        #expect(box.object == nil)
    }

    @Test func sharedFromAFailedGraphIsNotReused() throws {
        registerDependency(.shared)
        container.register(.unique) { [container] () -> Pair in
            _ = try container.resolve() as Dependency
            throw Failure.planned
        }
        #expect(throws: Failure.planned) { _ = try container.resolve() as Pair }
        _ = try container.resolve() as Dependency
        #expect(counter.count == 2)
    }

    @Test func sharedIsReusedAcrossContainersInOneGraph() throws {
        let other = DependencyContainer()
        other.register(.shared) { Dependency() }
        container.register(.unique) { [other] in
            Pair(first: try other.resolve(), second: try other.resolve())
        }
        let pair: Pair = try container.resolve()
        #expect(pair.first === pair.second)
    }

    @Test func sharedIsOnePerDefinitionWhateverTheRequestedKey() throws {
        let counter = counter
        container.register(.shared) { () -> Dependency in
            counter.increment()
            return Dependency()
        }
        .implements(Service.self)
        final class Views: Sendable {
            let plain: Dependency
            let optional: Dependency?
            let tagged: Dependency
            let forwarded: Service
            init(plain: Dependency, optional: Dependency?, tagged: Dependency, forwarded: Service) {
                self.plain = plain
                self.optional = optional
                self.tagged = tagged
                self.forwarded = forwarded
            }
        }
        container.register(.unique) { [container] in
            Views(
                plain: try container.resolve(), optional: try container.resolve(),
                tagged: try container.resolve(tag: "t"), forwarded: try container.resolve())
        }
        let views: Views = try container.resolve()
        #expect(views.optional === views.plain)
        #expect(views.tagged === views.plain)
        #expect(views.forwarded === views.plain)
        #expect(counter.count == 1)
    }

    @Test(arguments: cachingScopes)
    func cachedPerDefinitionNotPerTag(scope: ComponentScope) throws {
        registerDependency(scope)
        let untagged: Dependency = try container.resolve()
        let a = try container.resolve(tag: "a") as Dependency
        let b = try container.resolve(tag: "b") as Dependency
        let number = try container.resolve(tag: 1) as Dependency
        #expect(a === untagged)
        #expect(b === untagged)
        #expect(number === untagged)
        #expect(counter.count == 1)
    }

    @Test(arguments: cachingScopes)
    func cachedPerDefinitionWhenFirstResolvedThroughATag(scope: ComponentScope) throws {
        registerDependency(scope)
        let a = try container.resolve(tag: "a") as Dependency
        let untagged: Dependency = try container.resolve()
        #expect(a === untagged)
        #expect(counter.count == 1)
    }

    @Test(arguments: cachingScopes)
    func optionalAndForwardedTypesShareTheInstance(scope: ComponentScope) throws {
        let counter = counter
        container.register(scope) { () -> Dependency in
            counter.increment()
            return Dependency()
        }
        .implements(Service.self, Named.self)
        let service: Service = try container.resolve()
        let plain: Dependency = try container.resolve()
        let optional: Dependency? = try container.resolve()
        let unwrapped: Dependency! = try container.resolve()
        let named: Named = try container.resolve()
        let optionalService: Service? = try container.resolve()
        #expect(plain === service)
        #expect(optional === service)
        #expect(unwrapped === service)
        #expect(named === service)
        #expect(optionalService === service)
        #expect(counter.count == 1)
    }

    @Test(arguments: cachingScopes)
    func weaklyTypedResolveSharesTheInstance(scope: ComponentScope) throws {
        registerDependency(scope)
        let any = try container.resolve(Dependency.self)
        let typed: Dependency = try container.resolve()
        #expect(ObjectIdentifier(any as AnyObject) == ObjectIdentifier(typed))
        #expect(counter.count == 1)
    }

    @Test(arguments: cachingScopes)
    func constructsExactlyOnceAcrossManyResolves(scope: ComponentScope) throws {
        registerDependency(scope)
        registerPair()
        var held: [AnyObject] = []
        for _ in 0..<10 {
            held.append(try container.resolve() as Dependency)
            held.append(try container.resolve() as Pair)
        }
        #expect(counter.count == 1)
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton])
    func singletonOutlivesEveryOutsideReference(scope: ComponentScope) throws {
        registerDependency(scope)
        let weak = try resolveWeakly(container)
        #expect(weak.object != nil, "the container owns its singleton")
        _ = try container.resolve() as Dependency
        #expect(counter.count == 1)
    }

    @Test func weakSingletonIsHeldWhileReferencedOutside() throws {
        registerDependency(.weakSingleton)
        let held: Dependency = try container.resolve()
        let again: Dependency = try container.resolve()
        #expect(held === again)
        #expect(counter.count == 1)
    }

    @Test func weakSingletonIsFreedAndRecreatedAfterRelease() throws {
        registerDependency(.weakSingleton)
        let weak = try resolveWeakly(container)
        #expect(weak.object == nil, "nothing outside holds it, so it is freed")
        let next: Dependency = try container.resolve()
        #expect(counter.count == 2)
        #expect(try container.resolve() as Dependency === next)
        #expect(counter.count == 2)
    }

    @Test func weakSingletonIsHeldStronglyUntilTheOutermostResolveReturns() throws {
        registerDependency(.weakSingleton)
        container.register(.unique) { [container] in Observer(try container.resolve()) }
        container.register(.unique) { [container] in
            ObserverPair(first: try container.resolve(), second: try container.resolve())
        }
        let pair: ObserverPair = try container.resolve()
        #expect(pair.sawSameInstance, "within the graph the weak singleton is held strongly")
        #expect(counter.count == 1)
        #expect(pair.first.dependency == nil, "after the graph it is only held weakly")
    }

    @Test func weakSingletonHeldBySomethingElseSurvivesGraphs() throws {
        registerDependency(.weakSingleton)
        container.register(.unique) { [container] in Observer(try container.resolve()) }
        let holder: Dependency = try container.resolve()
        let observer: Observer = try container.resolve()
        #expect(observer.dependency === holder)
        #expect(counter.count == 1)
    }

    /// A value cannot be held weakly: a weak singleton of a value type is made once per resolution graph (all of
    /// the graph's requests get that one), and anew by the next graph. Before, each request in one graph made it
    /// again.
    @Test func aValueTypeWeakSingletonIsMadeOncePerGraph() throws {
        struct Stamp {
            let serial: Int
        }
        struct Pair {
            let first: Stamp
            let second: Stamp
        }
        container.register(.weakSingleton) { [counter] in Stamp(serial: counter.increment()) }
        container.register(.unique) { [container] in
            Pair(first: try container.resolve(), second: try container.resolve())
        }
        let pair: Pair = try container.resolve()
        #expect(pair.first.serial == pair.second.serial)
        #expect(counter.count == 1)
        let next: Pair = try container.resolve()
        #expect(next.first.serial == next.second.serial)
        #expect(next.first.serial != pair.first.serial)
    }

    @Test func singletonsOfTheSameTypeUnderDifferentTagsAreDistinct() throws {
        registerDependency(.singleton, tag: "a")
        registerDependency(.singleton, tag: "b")
        let a = try container.resolve(tag: "a") as Dependency
        let b = try container.resolve(tag: "b") as Dependency
        #expect(a !== b)
        #expect(counter.count == 2)
    }

    @Test func singletonFactoryThatThrowsIsRetriedAndCachesTheSuccess() throws {
        let attempts = Counter()
        container.register(.singleton) { () -> Dependency in
            attempts.increment()
            if attempts.count == 1 { throw Failure.planned }
            return Dependency()
        }
        #expect(throws: Failure.planned) { _ = try container.resolve() as Dependency }
        let first: Dependency = try container.resolve()
        let second: Dependency = try container.resolve()
        #expect(first === second)
        #expect(attempts.count == 2)
    }

    @Test func uniqueWithTagsNeverCaches() throws {
        registerDependency(.unique)
        let a = try container.resolve(tag: "a") as Dependency
        let b = try container.resolve(tag: "a") as Dependency
        #expect(a !== b)
        #expect(counter.count == 2)
    }

    @Test func scopesListAndDescribeThemselves() {
        #expect(ComponentScope.allCases == [.unique, .shared, .singleton, .eagerSingleton, .weakSingleton, .cached])
        #expect(
            ComponentScope.allCases.map(\.description) == [
                "unique", "shared", "singleton", "eagerSingleton", "weakSingleton", "cached",
            ])
    }
}
