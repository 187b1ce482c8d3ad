import Foundation
import Plexus
import PlexusTesting
import Testing

// A catalogue of bad input. Each case gives a clear thrown error (its case checked, and its description naming the
// type) or a documented, defined outcome — never a crash — and afterwards the same container resolves correctly.

// MARK: - Fixtures

private final class Unregistered: Sendable {}

private final class Registered: Sendable {}

private final class Service: Sendable {}

private protocol Unrelated: AnyObject {}

private final class Cell {
    let id: Int
    let title: String

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

private final class Level1 {
    let next: Level2

    init(next: Level2) {
        self.next = next
    }
}

private final class Level2 {
    let next: Level3

    init(next: Level3) {
        self.next = next
    }
}

private final class Level3 {}

private final class Chicken {
    init(egg: Egg) {}
}

private final class Egg {
    init(chicken: Chicken?) {}
}

private final class Needy {
    let dependency: Unregistered

    init(dependency: Unregistered) {
        self.dependency = dependency
    }
}

private enum Failure: Error, Equatable {
    case factory(depth: Int)
    case hook(depth: Int)
}

/// Which level fails, and how often each level's factory and hook ran; `@unchecked Sendable` is safe because every
/// field is only touched under `lock`.
private final class Levels: @unchecked Sendable {
    private let lock = NSLock()
    private var failing: Failure?
    private var factoryCalls = [0, 0, 0, 0]
    private var hookCalls = [0, 0, 0, 0]

    func fail(_ failure: Failure?) {
        lock.withLock { failing = failure }
    }

    func factory(_ depth: Int) throws {
        let failure = lock.withLock {
            factoryCalls[depth] += 1
            return failing
        }
        if failure == .factory(depth: depth) { throw Failure.factory(depth: depth) }
    }

    func hook(_ depth: Int) throws {
        let failure = lock.withLock {
            hookCalls[depth] += 1
            return failing
        }
        if failure == .hook(depth: depth) { throw Failure.hook(depth: depth) }
    }

    func calls(_ depth: Int) -> (factory: Int, hook: Int) {
        lock.withLock { (factoryCalls[depth], hookCalls[depth]) }
    }
}

private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

/// The key of a `definitionNotFound`, or nil for any other error.
private func notFoundKey(_ error: ResolutionError?) -> DefinitionKey? {
    guard case .definitionNotFound(let key) = error else { return nil }
    return key
}

@Suite(.silencingPlexusLogs) struct BadInputTests {
    let container = DependencyContainer()

    /// The check that ends every test: the container still resolves what it has.
    private func expectContainerWorks() throws {
        container.register { Registered() }
        #expect(try container.resolve() as Registered? != nil)
    }

    @Test func unregisteredTypeThrowsDefinitionNotFoundNamingIt() throws {
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Unregistered }

        let key = try #require(notFoundKey(error))
        #expect(sameType(key.type, Unregistered.self))
        #expect(key.tag == nil)
        #expect(error?.description.contains("Unregistered") == true)
        try expectContainerWorks()
    }

    @Test(
        arguments: zip(
            [DependencyContainer.Tag.string("prod"), .string("1"), .int(1)],
            [DependencyContainer.Tag.string("dev"), .int(1), .int(2)]))
    func wrongTagThrowsWithANearMiss(registered: DependencyContainer.Tag, requested: DependencyContainer.Tag) throws {
        container.register(tag: registered) { Service() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(tag: requested) as Service }

        let key = try #require(notFoundKey(error))
        #expect(sameType(key.type, Service.self))
        #expect(key.tag == requested)
        let description = error?.description ?? ""
        #expect(description.contains("Service"))
        #expect(description.contains("registered for tag \(registered)"))
        #expect(try container.resolve(tag: registered) as Service? != nil)
    }

    @Test func argumentsOfTheWrongTypeThrow() throws {
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }

        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(arguments: 1.5, "title") as Cell
        }

        let key = try #require(notFoundKey(error))
        #expect(sameType(key.typeOfArguments, (Double, String).self))
        #expect(error?.description.contains("Cell") == true)
        #expect(error?.description.contains("registered with arguments (Int, String)") == true)
        let cell: Cell = try container.resolve(arguments: 1, "title")
        #expect(cell.id == 1 && cell.title == "title")
    }

    @Test func wrongArgumentCountThrows() throws {
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }

        let tooFew = #expect(throws: ResolutionError.self) { try container.resolve(arguments: 1) as Cell }
        let tooMany = #expect(throws: ResolutionError.self) {
            try container.resolve(arguments: 1, "title", 2) as Cell
        }

        #expect(sameType(try #require(notFoundKey(tooFew)).typeOfArguments, Int.self))
        #expect(sameType(try #require(notFoundKey(tooMany)).typeOfArguments, (Int, String, Int).self))
        for error in [tooFew, tooMany] {
            #expect(error?.description.contains("Cell") == true)
            #expect(error?.description.contains("registered with arguments (Int, String)") == true)
        }
        let cell: Cell = try container.resolve(arguments: 2, "two")
        #expect(cell.id == 2)
    }

    @Test func argumentsInTheWrongOrderThrow() throws {
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(arguments: "title", 1) as Cell }

        let key = try #require(notFoundKey(error))
        #expect(sameType(key.typeOfArguments, (String, Int).self))
        #expect(error?.description.contains("registered with arguments (Int, String)") == true)
        let cell: Cell = try container.resolve(arguments: 3, "three")
        #expect(cell.title == "three")
    }

    @Test(arguments: ComponentScope.allCases)
    func forwardingToATypeTheInstanceIsNotThrowsInvalidType(scope: ComponentScope) throws {
        let calls = Counter()
        container.register(scope) { () -> Service in
            calls.increment()
            return Service()
        }
        .implements(Unrelated.self)

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Unrelated }

        guard case .invalidType(let resolved, let key) = error else {
            Issue.record("expected invalidType, got \(String(describing: error))")
            return
        }
        #expect(sameType(resolved, Service.self))
        #expect(sameType(key.type, Unrelated.self))
        #expect(error?.description.contains("Service") == true)
        #expect(error?.description.contains("Unrelated") == true)
        // The failed graph kept nothing: the definition still works, and a singleton is made once from now on.
        let first: Service = try container.resolve()
        let second: Service = try container.resolve()
        #expect((first === second) == (scope != .unique && scope != .shared))
        #expect(try container.resolve() as Service? != nil)
        #expect(calls.count >= 2)
    }

    /// Registers `Level1 -> Level2 -> Level3` (each resolving the next in its factory, each with a hook).
    private func registerLevels(_ scope: ComponentScope, _ levels: Levels) {
        container.register(scope) { [unowned container] () throws -> Level1 in
            try levels.factory(1)
            return Level1(next: try container.resolve())
        }
        .resolvingProperties { _, _ in try levels.hook(1) }
        container.register(scope) { [unowned container] () throws -> Level2 in
            try levels.factory(2)
            return Level2(next: try container.resolve())
        }
        .resolvingProperties { _, _ in try levels.hook(2) }
        container.register(scope) { () throws -> Level3 in
            try levels.factory(3)
            return Level3()
        }
        .resolvingProperties { _, _ in try levels.hook(3) }
    }

    @Test(arguments: 1...3, ComponentScope.allCases)
    func factoryErrorAtAnyDepthPropagatesUnchanged(depth: Int, scope: ComponentScope) throws {
        let levels = Levels()
        registerLevels(scope, levels)
        levels.fail(.factory(depth: depth))

        #expect(throws: Failure.factory(depth: depth)) { try container.resolve() as Level1 }

        for deeper in (depth + 1)..<4 {
            #expect(levels.calls(deeper).factory == 0, "a factory below the failing one ran")
        }
        #expect((1...3).allSatisfy { levels.calls($0).hook == 0 }, "a hook ran in a failed graph")
        levels.fail(nil)
        let first: Level1 = try container.resolve()
        let second: Level1 = try container.resolve()
        #expect((first === second) == isCached(scope))
        #expect((1...3).allSatisfy { levels.calls($0).hook >= 1 })
    }

    @Test(arguments: 1...3, ComponentScope.allCases)
    func hookErrorAtAnyDepthPropagatesUnchanged(depth: Int, scope: ComponentScope) throws {
        let levels = Levels()
        registerLevels(scope, levels)
        levels.fail(.hook(depth: depth))

        #expect(throws: Failure.hook(depth: depth)) { try container.resolve() as Level1 }

        levels.fail(nil)
        let before = (1...3).map { levels.calls($0).factory }
        let level1: Level1 = try container.resolve()
        // The failed graph's singletons were rolled back, so they are made again, and their hooks run again.
        let after = (1...3).map { levels.calls($0).factory }
        #expect(zip(before, after).allSatisfy { $1 == $0 + 1 })
        #expect(levels.calls(depth).hook == 2)
        if isCached(scope) {
            #expect(try container.resolve() as Level1 === level1)
        }
    }

    @Test(arguments: ComponentScope.allCases)
    func constructorCycleThrowsCircularDependencyInEveryScope(scope: ComponentScope) throws {
        container.register(scope) { [unowned container] () throws -> Chicken in Chicken(egg: try container.resolve()) }
        let egg = container.register(scope) { [unowned container] () throws -> Egg in
            Egg(chicken: try container.resolve())
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Chicken }

        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path.map { String(describing: $0.type) } == ["Chicken", "Egg", "Chicken"])
        #expect(error?.description.hasPrefix("Circular dependency: Chicken -> Egg -> Chicken") == true)
        // Breaking the cycle makes the same container resolve the graph.
        container.remove(egg)
        container.register(scope) { Egg(chicken: nil) }
        #expect(try container.resolve() as Chicken? != nil)
    }

    @Test func constructorCycleAcrossCollaboratorsThrowsCircularDependency() throws {
        let other = DependencyContainer()
        container.register { [unowned container] () throws -> Chicken in Chicken(egg: try container.resolve()) }
        other.register { [unowned other] () throws -> Egg in Egg(chicken: try other.resolve()) }
        container.collaborate(with: other)
        other.collaborate(with: container)

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Chicken }

        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path.count == 3)
        #expect(error?.description.contains("Chicken -> Egg -> Chicken") == true)
        try expectContainerWorks()
    }

    @Test(arguments: ComponentScope.allCases)
    func registeringAnotherDefinitionFromInsideAFactoryWorks(scope: ComponentScope) throws {
        container.register(scope) { [unowned container] () -> Service in
            container.register { Registered() }
            return Service()
        }

        #expect(try container.resolve() as Service? != nil)
        #expect(try container.resolve() as Registered? != nil)
    }

    @Test(arguments: ComponentScope.allCases)
    func overridingADefinitionFromInsideItsOwnFactoryFinishesWithTheOldOne(scope: ComponentScope) throws {
        // Defined outcome: the resolve in progress returns what the old factory made; later resolves use the new
        // definition.
        let replaced = Service()
        let calls = Counter()
        container.register(scope) { [unowned container] () -> Service in
            calls.increment()
            container.register(scope) { replaced }
            return Service()
        }

        let first: Service = try container.resolve()
        let second: Service = try container.resolve()

        #expect(first !== replaced)
        #expect(second === replaced)
        #expect(calls.count == 1)
        #expect(try container.resolve() as Service === replaced)
    }

    @Test(arguments: ComponentScope.allCases)
    func removingADefinitionFromInsideItsOwnFactoryFinishesTheResolve(scope: ComponentScope) throws {
        // Defined outcome: the resolve in progress completes (hooks included); the definition is gone afterwards.
        let hooks = Counter()
        let box = DefinitionBox()
        box.definition = container.register(scope) { [unowned container] () -> Service in
            if let definition = box.definition { container.remove(definition) }
            return Service()
        }
        .resolvingProperties { _, _ in hooks.increment() }

        #expect(try container.resolve() as Service? != nil)
        #expect(hooks.count == 1)
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Service }
        #expect(sameType(notFoundKey(error)?.type, Service.self))
        try expectContainerWorks()
    }

    @Test(arguments: ComponentScope.allCases)
    func resettingFromInsideAFactoryFinishesTheResolve(scope: ComponentScope) throws {
        // Defined outcome: the resolve in progress completes, including the dependency it resolves after the
        // reset (from the definitions it had already found); afterwards the container is empty and usable.
        container.register(scope) { [unowned container] () throws -> Level2 in
            container.reset()
            return Level2(next: Level3())
        }
        container.register(scope) { [unowned container] () throws -> Level1 in Level1(next: try container.resolve()) }

        #expect(try container.resolve() as Level1? != nil)
        #expect(!container.isBootstrapped)
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Level1 }
        #expect(sameType(notFoundKey(error)?.type, Level1.self))
        try expectContainerWorks()
    }

    @Test func resettingFromInsideAHookFinishesTheResolve() throws {
        container.register(.singleton) { Service() }
            .resolvingProperties { container, _ in container.reset() }

        #expect(try container.resolve() as Service? != nil)
        #expect(throws: ResolutionError.self) { try container.resolve() as Service }
        try expectContainerWorks()
    }

    @Test func collaboratingWithItselfIsIgnored() throws {
        container.collaborate(with: container)
        container.collaborate(with: [container, container])

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Unregistered }

        #expect(sameType(notFoundKey(error)?.type, Unregistered.self))
        try expectContainerWorks()
    }

    @Test func freedCollaboratorDropsOut() throws {
        weak var freed: DependencyContainer?
        do {
            let other = DependencyContainer()
            other.register { Service() }
            container.collaborate(with: other)
            #expect(try container.resolve() as Service? != nil)
            freed = other
        }
        #expect(freed == nil)

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Service }

        #expect(sameType(notFoundKey(error)?.type, Service.self))
        container.collaborate(with: DependencyContainer())
        try expectContainerWorks()
    }

    @Test func validateReportsAMissingDependency() throws {
        container.register { [unowned container] () throws -> Needy in Needy(dependency: try container.resolve()) }

        let error = #expect(throws: ResolutionError.self) { try container.validate() }

        #expect(sameType(notFoundKey(error)?.type, Unregistered.self))
        #expect(error?.description.contains("Unregistered") == true)
        container.register { Unregistered() }
        try container.validate()
        #expect(try container.resolve() as Needy? != nil)
    }

    @Test func weaklyTypedResolveOfAnUnregisteredTypeThrows() throws {
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Unregistered.self) }

        #expect(sameType(notFoundKey(error)?.type, Unregistered.self))
        #expect(error?.description.contains("Unregistered") == true)
        container.register { Unregistered() }
        #expect(try container.resolve(Unregistered.self) is Unregistered)
    }

    @Test func resolvingAnOptionalOfAnUnregisteredTypeThrowsInsteadOfReturningNil() throws {
        // Defined outcome: `T?` resolves through `T`'s definition, so a missing one is an error, not `nil`.
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Unregistered? }

        #expect(sameType(notFoundKey(error)?.type, Unregistered?.self))
        #expect(error?.description.contains("Optional<Unregistered>") == true)
        container.register { Unregistered() }
        #expect(try container.resolve() as Unregistered? != nil)
    }
}

/// Lets a factory see its own definition, weakly (the definition holds the factory, which holds the box);
/// `@unchecked Sendable` is safe because `value` is only touched under `lock`.
private final class DefinitionBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var value: Definition<Service, Void>?

    var definition: Definition<Service, Void>? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Whether instances of `scope` outlive their resolution graph.
private func isCached(_ scope: ComponentScope) -> Bool {
    switch scope {
    case .singleton, .eagerSingleton, .weakSingleton, .cached: true
    case .unique, .shared: false
    }
}
