import Foundation
import Plexus
import PlexusTesting
import Testing

// Each test pins one Dip defect that Plexus fixes. Data-race freedom is checked by running the
// whole suite under ThreadSanitizer (`.ci/run`).

private final class Service {}

private struct Version: Equatable {
    let number: Int
}

private final class Versioned {
    let number: Int

    init(number: Int) {
        self.number = number
    }
}

private final class Parent {
    let child: Child

    init(child: Child) {
        self.child = child
    }
}

private final class Child {
    weak var parent: Parent?
}

private final class Chicken {}
private final class Egg {}

private final class Eager {}

private enum BootError: Error {
    case notReady
}

private enum FactoryError: Error, Equatable {
    case broken
}

/// Implements neither method: it only compiles because the defaults are public.
private final class Quiet: Resolvable {}

/// A switch that a test flips while factories read it from other threads; `@unchecked Sendable` is safe because
/// `flag` is only touched under `lock`.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var isOn: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}

/// Whether `error` is `definitionNotFound` for a key of `type`.
private func isNotFound(_ error: ResolutionError?, _ type: Any.Type) -> Bool {
    guard case .definitionNotFound(let key) = error else { return false }
    return key.type == type
}

@Suite(.silencingPlexusLogs) struct RegressionTests {
    let container = DependencyContainer()

    @Test func collaborationIsDirectionalAndDoesNotLeakBetweenSiblings() throws {
        let root = DependencyContainer()
        let first = DependencyContainer()
        let second = DependencyContainer()
        first.register { Service() }
        first.collaborate(with: root)
        second.collaborate(with: root)

        // Dip linked both ways, so root (and through it, second) saw first's definitions.
        let fromRoot = #expect(throws: ResolutionError.self) { try root.resolve() as Service }
        let fromSibling = #expect(throws: ResolutionError.self) { try second.resolve() as Service }
        #expect(isNotFound(fromRoot, Service.self))
        #expect(isNotFound(fromSibling, Service.self))
        #expect(try first.resolve(Service.self) is Service)
    }

    @Test func singletonIsCachedPerDefinitionNotPerRequestedTag() throws {
        let calls = Counter()
        container.register(.singleton) { () -> Service in
            calls.increment()
            return Service()
        }

        let untagged: Service = try container.resolve()
        let taggedA: Service = try container.resolve(tag: "a")
        let taggedB: Service = try container.resolve(tag: "b")
        let numbered: Service = try container.resolve(tag: 1)

        #expect(untagged === taggedA)
        #expect(untagged === taggedB)
        #expect(untagged === numbered)
        #expect(calls.count == 1)
    }

    @Test func overrideLeavesNoStaleInstance() throws {
        container.register(.singleton) { Versioned(number: 1) }
        weak var old: Versioned?
        do {
            let untagged: Versioned = try container.resolve()
            let tagged: Versioned = try container.resolve(tag: "a")
            #expect(untagged === tagged)
            old = untagged
        }
        #expect(old != nil)

        container.register(.singleton) { Versioned(number: 2) }

        #expect(old == nil)
        #expect((try container.resolve() as Versioned).number == 2)
        #expect((try container.resolve(tag: "a") as Versioned).number == 2)
    }

    @Test func singletonResolvedBeforeCollaborateStaysTheOnlyOne() throws {
        let root = DependencyContainer()
        let child = DependencyContainer()
        let calls = Counter()
        root.register(.singleton) { () -> Service in
            calls.increment()
            return Service()
        }
        let early: Service = try root.resolve()

        child.collaborate(with: root)

        #expect(try child.resolve() as Service === early)
        #expect(try root.resolve() as Service === early)
        #expect(calls.count == 1)
    }

    @Test func resetOfTheOwnerReleasesItsSingletonsEverywhere() throws {
        let root = DependencyContainer()
        let child = DependencyContainer()
        root.register(.singleton) { Service() }
        child.collaborate(with: root)
        weak var weakService: Service?
        do {
            let service: Service = try child.resolve()
            weakService = service
        }
        #expect(weakService != nil)

        root.reset()

        #expect(weakService == nil)
    }

    @Test func collaboratorErrorsPropagate() throws {
        let root = DependencyContainer()
        let child = DependencyContainer()
        root.register { () throws -> Service in throw FactoryError.broken }
        child.collaborate(with: root)

        // Dip swallowed the error and reported the definition as not found.
        let error = #expect(throws: FactoryError.self) { try child.resolve() as Service }
        #expect(error == .broken)
    }

    @Test func noFactoryRunsTwiceInACycle() throws {
        let parentCalls = Counter()
        let childCalls = Counter()
        container.register { [unowned container] () throws -> Parent in
            parentCalls.increment()
            return Parent(child: try container.resolve())
        }
        container.register { () -> Child in
            childCalls.increment()
            return Child()
        }
        .resolvingProperties { c, child in child.parent = try c.resolve() }

        let parent: Parent = try container.resolve()

        #expect(parent.child.parent === parent)
        #expect(parentCalls.count == 1)
        #expect(childCalls.count == 1)
    }

    @Test func constructorCycleThrowsInsteadOfOverflowingTheStack() throws {
        container.register { [unowned container] () throws -> Chicken in
            _ = try container.resolve() as Egg
            return Chicken()
        }
        container.register { [unowned container] () throws -> Egg in
            _ = try container.resolve() as Chicken
            return Egg()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Chicken }
        guard case .circularDependency = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("Circular dependency: Chicken -> Egg -> Chicken") == true)
    }

    @Test func resolvableDefaultsArePublic() throws {
        container.register { Quiet() }

        let quiet: Quiet = try container.resolve()

        quiet.resolveDependencies(container)
        quiet.didResolveDependencies()
        #expect(try container.resolve() as Quiet !== quiet)
    }

    @Test func definitionKeyInitializerIsPublic() throws {
        let error = #expect(throws: ResolutionError.self) { try container.resolve(tag: "missing") as Service }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }

        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "missing"))
        #expect(key != DefinitionKey(type: Service.self, typeOfArguments: Void.self))
    }

    @Test func registeringAfterBootstrapWorks() throws {
        container.register(.eagerSingleton) { Service() }
        try container.bootstrap()
        #expect(container.isBootstrapped)

        let calls = Counter()
        container.register(.eagerSingleton) { () -> Eager in
            calls.increment()
            return Eager()
        }
        container.register { Version(number: 1) }

        #expect(try container.resolve() as Version == Version(number: 1))
        try container.bootstrap()
        #expect(calls.count == 1)
        let eager: Eager = try container.resolve()
        #expect(try container.resolve() as Eager === eager)
        #expect(calls.count == 1)
    }

    @Test func failedBootstrapCanBeRetried() throws {
        let ready = Flag()
        let calls = Counter()
        container.register(.eagerSingleton) { () throws -> Eager in
            calls.increment()
            guard ready.isOn else { throw BootError.notReady }
            return Eager()
        }

        #expect(throws: BootError.self) { try container.bootstrap() }
        #expect(!container.isBootstrapped)

        ready.isOn = true
        try container.bootstrap()

        #expect(container.isBootstrapped)
        #expect(calls.count == 2)
        _ = try container.resolve() as Eager
        #expect(calls.count == 2)
    }

    @Test func collaboratingContainersResolvedFromBothSidesOnSeveralThreadsDoNotDeadlock() throws {
        let left = DependencyContainer()
        let right = DependencyContainer()
        let parentCalls = Counter()
        let asking = DispatchSemaphore(value: 0)
        left.register(.singleton) { [left] () throws -> Parent in
            // The first construction goes on only once every thread has started its first resolve, each of which
            // needs this singleton (directly or from Child's hook): they all find it under way.
            if parentCalls.increment() == 1 {
                for _ in 0..<4 { _ = asking.wait(timeout: .now() + 10) }
            }
            return Parent(child: try left.resolve())
        }
        right.register { Child() }
            .resolvingProperties { c, child in child.parent = try c.resolve() }
        left.collaborate(with: right)
        right.collaborate(with: left)
        let failures = Counter()
        let group = DispatchGroup()

        for index in 0..<4 {
            group.enter()
            Thread(
                block: quiet {
                    defer { group.leave() }
                    asking.signal()
                    for _ in 0..<50 {
                        do {
                            if index.isMultiple(of: 2) {
                                _ = try left.resolve() as Parent
                            } else {
                                _ = try right.resolve() as Child
                            }
                        } catch {
                            failures.increment()
                        }
                    }
                }
            )
            .start()
        }

        #expect(group.wait(timeout: .now() + 20) == .success, "threads did not finish within 20 s: deadlock")
        #expect(failures.count == 0)
        let parent: Parent = try left.resolve()
        #expect(parent.child.parent === parent)
    }
}

/// Release builds once passed a pointer to the empty argument tuple that read as "auto-wire" inside an enum, so every
/// typed resolve without arguments failed with `definitionNotFound` (CI now also runs the tests in release).
@Suite(.silencingPlexusLogs) struct ZeroSizedArgumentRegressionTests {
    private struct Empty {}
    private final class Made {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func resolvesWithoutArgumentsAndWithZeroSizedArguments() throws {
        let container = DependencyContainer()
        container.register(.unique) { Made(1) }
        container.register(.unique) { (_: Empty) in Made(2) }
        container.register(.unique) { (_: Empty, _: Empty) in Made(3) }
        #expect((try container.resolve() as Made).value == 1)
        #expect((try container.resolve(arguments: Empty()) as Made).value == 2)
        #expect((try container.resolve(arguments: Empty(), Empty()) as Made).value == 3)
        try container.validate(Empty(), (Empty(), Empty()))
    }
}

// MARK: - Adversarial pass: weak singletons of optionals, inherited accessor tags, wrapper retain cycles

private final class Held: Sendable {}

extension DependencyContainer {
    fileprivate var optionalHeld: Factory<Held?> { self { Held() as Held? }.weakSingleton }
    fileprivate var held: Factory<Held> { self { Held() }.singleton }
    fileprivate var injectedHost: Factory<InjectedHost> { self { InjectedHost() } }
    // `unowned`: a default factory that captures its container strongly is a cycle of its own, not the wrappers'.
    fileprivate var lazyHolder: Factory<LazyHolder> { self { [unowned self] in LazyHolder(container: self) }.singleton }
}

/// Auto-injected: its property passes no tag of its own.
private final class InjectedHost {
    @Injected var held: Held?
}

/// Holds both lazy wrappers on `container`, read only when a test reads them.
private final class LazyHolder {
    @LazyInject var lazy: Held
    @WeakLazyInject var weakLazy: Held?
    init(container: DependencyContainer) {
        _lazy = LazyInject(\.held, container: container)
        _weakLazy = WeakLazyInject(\.held, container: container)
    }
}

@Suite(.silencingPlexusLogs) struct AdversarialRegressionTests {
    let container = DependencyContainer()

    @Test func aWeakSingletonOfAnOptionalIsSharedWhileTheWrappedObjectLives() throws {
        container.register(.weakSingleton) { Held() as Held? }
        weak var released: Held?
        do {
            let first = try #require(try container.resolve() as Held?)
            released = first
            #expect(try container.resolve() as Held? === first)
            #expect(try container.resolve(Held?.self) as? Held === first)
        }
        #expect(released == nil)
    }

    @Test func aWeakSingletonAccessorOfAnOptionalIsSharedWhileTheWrappedObjectLives() throws {
        let first = try #require(container.optionalHeld())
        #expect(container.optionalHeld() === first)
        #expect(try container.optionalHeld.resolve() === first)
    }
}

extension AdversarialRegressionTests {
    @Test(arguments: [false, true])
    func aSingletonHoldingLazyWrappersOnItsContainerDoesNotKeepItAlive(throughAccessor: Bool) throws {
        weak var freed: DependencyContainer?
        do {
            let container = DependencyContainer()
            freed = container
            if throughAccessor {
                _ = container.lazyHolder()
            } else {
                container.register(.singleton) { c in LazyHolder(container: c) }
                _ = try container.resolve() as LazyHolder
            }
        }
        #expect(freed == nil)
    }

    @Test func aLazyWrapperKeepsTheContainerOnlyItKeepsUntilItsFirstRead() {
        weak var freed: DependencyContainer?
        let holder: LazyHolder
        do {
            let container = DependencyContainer()
            freed = container
            holder = LazyHolder(container: container)
        }
        #expect(freed != nil)
        #expect(holder.weakLazy === holder.lazy)
        #expect(holder.lazy === holder.lazy)
    }
}

extension AdversarialRegressionTests {
    @Test func anAccessorsKeyIsNotATagPassedDownToInjectedProperties() throws {
        let tags = Collected<DependencyContainer.Tag?>()
        container.register(.unique) { c in
            tags.append(c.context.tag)
            return Held()
        }
        #expect(try container.injectedHost.resolve().held != nil)
        #expect(tags.values.count == 1 && tags.values.allSatisfy { $0 == nil })
    }

    @Test(arguments: [false, true])
    func aMissingInjectedPropertyOfAnAccessorsInstanceIsNamedWithoutTheAccessorsKey(replaced: Bool) throws {
        if replaced { container.injectedHost.replace { InjectedHost() } }
        let error = try #require(throws: ResolutionError.self) { try container.injectedHost.resolve() }
        #expect("\(error)".contains("No definition registered for Held,"), "\(error)")
    }
}

extension AdversarialRegressionTests {
    /// Removals of most keys of one type (many tags) leave the rest, and registering a removed key again, as they
    /// were; near misses name only keys still registered.
    @Test func removingMostKeysOfATypeLeavesTheOthersAsTheyWere() throws {
        let definitions = (0..<40).map { tag in container.register(.unique, tag: tag) { Held() } }
        for tag in 0..<30 { container.remove(definitions[tag], tag: tag) }
        container.register(definitions[7], tag: 7)
        for tag in 30..<40 { _ = try container.resolve(tag: tag) as Held }
        _ = try container.resolve(tag: 7) as Held
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: 5) as Held }
        #expect(!"\(error)".contains("tag: 6)"))
        for tag in [7] + Array(30..<40) { container.remove(definitions[tag], tag: tag) }
        #expect(throws: ResolutionError.self) { try container.resolve(tag: 35) as Held }
        container.register(definitions[35], tag: 35)
        _ = try container.resolve(tag: 35) as Held
    }

    /// Integer tags that differ only in their high bits are told apart.
    @Test func integerTagsDifferingOnlyInHighBitsAreDistinct() throws {
        let made = (0..<64).map { _ in Held() }
        for index in made.indices {
            let held = made[index]
            container.register(.unique, tag: index << 40) { held }
        }
        for index in made.indices { #expect(try container.resolve(tag: index << 40) as Held === made[index]) }
    }
}

private final class ChainLink<Inner> {
    let inner: Inner
    init(inner: Inner) { self.inner = inner }
}

private struct UnregisteredLeaf {}

/// Registers `depth` auto-wired links above `Inner` (`ChainLink<ChainLink<…<Inner>>>`), then resolves the outermost.
private func resolveAutoWiredChain<Inner>(_: Inner.Type, depth: Int, in container: DependencyContainer) throws {
    container.register { (inner: Inner) in ChainLink(inner: inner) }
    if depth == 1 {
        _ = try container.resolve() as ChainLink<Inner>
    } else {
        try resolveAutoWiredChain(ChainLink<Inner>.self, depth: depth - 1, in: container)
    }
}

/// One level of a keyed chain: made from the next level's `Held`.
private final class Level: Sendable {
    let next: Level?
    init(next: Level?) { self.next = next }
}

extension AdversarialRegressionTests {
    @Test func aDeepChainsRequiredByListIsShortened() throws {
        container.fallsBackToUntaggedDefinitions = false
        for level in 0..<300 {
            container.register(.unique, tag: level) { c in Level(next: try c.resolve(tag: level + 1) as Level) }
        }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: 0) as Level }
        let message = "\(error)"
        #expect(message.components(separatedBy: "required by").count - 1 <= 13)
        #expect(message.contains("more)"))
        #expect(message.contains("Level (tag: 0)"))
        #expect(message.count < 2_000, "\(message.prefix(3_000))")
    }

    @Test func aDeepAutoWiredChainNamesItsFailureOnce() throws {
        let error = try #require(throws: ResolutionError.self) {
            try resolveAutoWiredChain(UnregisteredLeaf.self, depth: 12, in: container)
        }
        let message = "\(error)"
        #expect(message.components(separatedBy: "Failed to auto-wire").count - 1 == 1, "\(message)")
        #expect(message.contains("through 11 auto-wired types below it"))
        #expect(message.contains("No definition registered for UnregisteredLeaf"))
    }
}
