import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject {}
private final class ServiceImp: Service, Sendable {}
private final class OtherImp: Service, Sendable {}
private final class Clock: Sendable {}
private final class Probe: Sendable {
    let values: [Int]
    init(_ values: Int...) { self.values = values }
}
private struct Cell: Equatable {
    let id: Int
    let title: String
}

private struct Weak {
    weak var object: AnyObject?
}

/// Resolves `T` and keeps only a weak reference to it, in a frame of its own so no local keeps it alive.
@inline(never)
private func resolveWeakly<T>(_ container: DependencyContainer, as _: T.Type, tag: String? = nil) throws -> Weak {
    let instance: T = try container.resolve(tag: tag)
    return Weak(object: instance as AnyObject)
}

/// A synchronous resolve, which Swift would not pick inside an async test.
private func resolveSynchronously(_ container: DependencyContainer, tag: String, argument: Int) throws -> Cell {
    try container.resolve(tag: tag, arguments: argument)
}

private let cachingScopes: [ComponentScope] = [.singleton, .eagerSingleton, .weakSingleton]

@Suite(.silencingPlexusLogs) struct RegistrationTests {
    let container = DependencyContainer()

    @Test func registerDefaultsToSharedScope() throws {
        let definition = container.register { ServiceImp() as Service }
        #expect(definition.scope == .shared)
        let first: Service = try container.resolve()
        let second: Service = try container.resolve()
        #expect(first !== second)
    }

    @Test(arguments: ComponentScope.allCases)
    func registerRecordsEveryScope(scope: ComponentScope) throws {
        let definition = container.register(scope) { ServiceImp() as Service }
        #expect(definition.scope == scope)
        let service: Service = try container.resolve()
        #expect(service is ServiceImp)
    }

    @Test func registerWithTypeRegistersUnderThatType() throws {
        container.register(type: Service.self) { ServiceImp() }
        let service: Service = try container.resolve()
        #expect(service is ServiceImp)
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as ServiceImp }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: ServiceImp.self, typeOfArguments: Void.self))
    }

    @Test func registerWithTypeAndTagAndScope() throws {
        container.register(.singleton, type: Service.self, tag: "prod") { ServiceImp() }
        let first = try container.resolve(tag: "prod") as Service
        let second = try container.resolve(tag: "prod") as Service
        #expect(first === second)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
    }

    @Test func registerReturnsTheDefinitionTypedByResultAndArguments() {
        let none: Definition<Service, Void> = container.register { ServiceImp() as Service }
        // Dip code states the definition's type; a one-argument definition has its own overload, since Swift 6.3
        // cannot infer a one-element argument pack from the annotation (it would pick the main-actor overload).
        let one: Definition<Cell, Int> = container.register(.unique) { (id: Int) in Cell(id: id, title: "") }
        let inferred: Definition<Cell, Int> = container.register(tag: "inferred") { id in Cell(id: id, title: "") }
        let two: Definition<Cell, (Int, String)> = container.register { (id: Int, title: String) in
            Cell(id: id, title: title)
        }
        #expect(none.scope == .shared)
        #expect(one.scope == .unique)
        #expect(two.scope == .shared)
        #expect(inferred.scope == .shared)
    }

    @MainActor @Test func oneArgumentDefinitionsKeepTheirStatedTypeInTheAsyncAndMainActorForms() async throws {
        let loaded: Definition<Cell, Int> = container.register(tag: "async") { (id: Int) async in
            await Task.yield()
            return Cell(id: id, title: "loaded")
        }
        let onMain: MainActorDefinition<Cell, Int> = container.register(tag: "main") { @MainActor (id: Int) in
            Cell(id: id, title: "main")
        }
        _ = (loaded, onMain)

        // The async form is the async overload: a synchronous resolve cannot run it.
        #expect(throws: ResolutionError.self) { try resolveSynchronously(container, tag: "async", argument: 1) }
        #expect(try await container.resolve(tag: "async", arguments: 2) as Cell == Cell(id: 2, title: "loaded"))
        #expect(try resolveSynchronously(container, tag: "main", argument: 3) == Cell(id: 3, title: "main"))
    }

    @Test func overrideReplacesTheFactory() throws {
        container.register { ServiceImp() as Service }
        container.register { OtherImp() as Service }
        let service: Service = try container.resolve()
        #expect(service is OtherImp)
    }

    @Test(arguments: cachingScopes)
    func overrideDropsTheCachedInstance(scope: ComponentScope) throws {
        container.register(scope) { ServiceImp() as Service }
        let first: Service = try container.resolve()
        container.register(scope) { ServiceImp() as Service }
        let second: Service = try container.resolve()
        #expect(first !== second, "an override must leave no stale \(scope) instance")
        let third: Service = try container.resolve()
        #expect(second === third)
    }

    @Test func overrideWithAnotherScopeTakesEffect() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let singleton: Service = try container.resolve()
        container.register(.unique) { ServiceImp() as Service }
        let first: Service = try container.resolve()
        let second: Service = try container.resolve()
        #expect(first !== singleton)
        #expect(first !== second)
    }

    @Test func overrideReleasesTheOldSingleton() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let old = try resolveWeakly(container, as: Service.self)
        #expect(old.object != nil, "the container holds its singleton")
        container.register(.singleton) { OtherImp() as Service }
        #expect(old.object == nil, "the overridden singleton must be freed")
    }

    @Test func overrideLeavesOtherTagsAlone() throws {
        container.register(.singleton, tag: "a") { ServiceImp() as Service }
        container.register(.singleton, tag: "b") { ServiceImp() as Service }
        let a = try container.resolve(tag: "a") as Service
        let b = try container.resolve(tag: "b") as Service
        container.register(.singleton, tag: "a") { OtherImp() as Service }
        #expect(try container.resolve(tag: "a") as Service !== a)
        #expect(try container.resolve(tag: "b") as Service === b)
    }

    @Test func overrideOfTaggedKeyLeavesUntaggedAlone() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let untagged: Service = try container.resolve()
        container.register(.singleton, tag: "a") { OtherImp() as Service }
        #expect(try container.resolve() as Service === untagged)
        #expect(try container.resolve(tag: "a") as Service is OtherImp)
    }

    @Test(arguments: cachingScopes)
    func definitionRegisteredUnderSecondTagSharesInstances(scope: ComponentScope) throws {
        let counter = Counter()
        let definition = container.register(scope, tag: "a") { () -> Service in
            counter.increment()
            return ServiceImp()
        }
        container.register(definition, tag: "b")
        let a = try container.resolve(tag: "a") as Service
        let b = try container.resolve(tag: "b") as Service
        #expect(a === b)
        #expect(counter.count == 1)
    }

    @Test func definitionRegisteredUntaggedAndTaggedSharesInstance() throws {
        let definition = container.register(.singleton) { ServiceImp() as Service }
        container.register(definition, tag: "b")
        #expect(try container.resolve() as Service === container.resolve(tag: "b") as Service)
    }

    @Test(arguments: [ComponentScope.unique, .shared])
    func definitionRegisteredUnderSecondTagStillMakesNewInstances(scope: ComponentScope) throws {
        let definition = container.register(scope, tag: "a") { ServiceImp() as Service }
        container.register(definition, tag: "b")
        let a = try container.resolve(tag: "a") as Service
        let b = try container.resolve(tag: "b") as Service
        #expect(a !== b)
    }

    @Test func definitionRegisteredInSecondContainerKeepsSeparateSingletons() throws {
        let other = DependencyContainer()
        let counter = Counter()
        let definition = container.register(.singleton) { () -> Service in
            counter.increment()
            return ServiceImp()
        }
        other.register(definition)
        let mine: Service = try container.resolve()
        let theirs: Service = try other.resolve()
        #expect(mine !== theirs)
        #expect(try container.resolve() as Service === mine)
        #expect(try other.resolve() as Service === theirs)
        #expect(counter.count == 2)
    }

    @Test func definitionRegisteredInSecondContainerSurvivesRemovalFromFirst() throws {
        let other = DependencyContainer()
        let definition = container.register(.singleton) { ServiceImp() as Service }
        other.register(definition)
        let theirs: Service = try other.resolve()
        container.remove(definition)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        #expect(try other.resolve() as Service === theirs)
    }

    @Test func registeringSameDefinitionAgainUnderSameKeyDropsItsInstance() throws {
        let definition = container.register(.singleton) { ServiceImp() as Service }
        let first: Service = try container.resolve()
        container.register(definition)
        let second: Service = try container.resolve()
        #expect(second !== first, "registering again under the same key drops what was cached for it")
        #expect(try container.resolve() as Service === second)
    }

    @Test func removeMakesTheDefinitionUnresolvable() throws {
        let definition = container.register { ServiceImp() as Service }
        _ = try container.resolve() as Service
        container.remove(definition)
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: nil))
    }

    @Test func removeWithTagRemovesOnlyThatRegistration() throws {
        let definition = container.register(.singleton, tag: "a") { ServiceImp() as Service }
        container.register(definition, tag: "b")
        let b = try container.resolve(tag: "b") as Service
        container.remove(definition, tag: "a")
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "a") as Service }
        #expect(try container.resolve(tag: "b") as Service === b, "the other tag keeps the same instance")
    }

    @Test func removeWithWrongTagChangesNothing() throws {
        let definition = container.register { ServiceImp() as Service }
        container.remove(definition, tag: "other")
        _ = try container.resolve() as Service
    }

    @Test func removeOfAnOverriddenDefinitionLeavesItsReplacement() throws {
        let replaced = container.register { ServiceImp() as Service }
        container.register { OtherImp() as Service }
        container.remove(replaced)
        #expect(try container.resolve() as Service is OtherImp)
    }

    @Test func removeOfDefinitionFromAnotherContainerChangesNothing() throws {
        let other = DependencyContainer()
        let foreign = other.register { OtherImp() as Service }
        container.register { ServiceImp() as Service }
        container.remove(foreign)
        #expect(try container.resolve() as Service is ServiceImp)
    }

    @Test func removeReleasesTheSingleton() throws {
        let definition = container.register(.singleton) { ServiceImp() as Service }
        let weak = try resolveWeakly(container, as: Service.self)
        #expect(weak.object != nil)
        container.remove(definition)
        #expect(weak.object == nil)
    }

    @Test func removeDropsForwardedTypes() throws {
        let definition = container.register { ServiceImp() }.implements(Service.self)
        _ = try container.resolve() as Service
        container.remove(definition)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as ServiceImp }
    }

    @Test func removedDefinitionCanBeRegisteredAgainWithAFreshInstance() throws {
        let definition = container.register(.singleton) { ServiceImp() as Service }
        let first: Service = try container.resolve()
        container.remove(definition)
        container.register(definition)
        let second: Service = try container.resolve()
        #expect(first !== second)
    }

    @Test func resetDropsEveryDefinition() throws {
        container.register { ServiceImp() as Service }
        container.register(tag: "t") { Clock() }
        container.register { (id: Int) in Cell(id: id, title: "") }
        container.reset()
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "t") as Clock }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(arguments: 1) as Cell }
    }

    @Test(arguments: cachingScopes)
    func resetFreesCachedSingletons(scope: ComponentScope) throws {
        container.register(scope) { ServiceImp() as Service }
        let held: Service = try container.resolve()
        let weak = Weak(object: held)
        container.reset()
        container.register(scope) { ServiceImp() as Service }
        #expect(try container.resolve() as Service !== held, "no instance survives reset")
        withExtendedLifetime(held) {}
        #expect(weak.object != nil)
    }

    @Test func resetReallyReleasesTheSingleton() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let weak = try resolveWeakly(container, as: Service.self)
        #expect(weak.object != nil)
        container.reset()
        #expect(weak.object == nil)
    }

    @Test func resetKeepsCollaborators() throws {
        let other = DependencyContainer()
        other.register { Clock() }
        container.collaborate(with: other)
        container.register { ServiceImp() as Service }
        container.reset()
        _ = try container.resolve() as Clock
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
    }

    @Test func resetLeavesOtherContainersRegistrationsOfTheSameDefinition() throws {
        let other = DependencyContainer()
        let definition = container.register(.singleton) { ServiceImp() as Service }
        other.register(definition)
        let theirs: Service = try other.resolve()
        container.reset()
        #expect(try other.resolve() as Service === theirs)
    }

    @Test func resetContainerAcceptsNewRegistrations() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let before: Service = try container.resolve()
        container.reset()
        container.register(.singleton) { ServiceImp() as Service }
        let after: Service = try container.resolve()
        #expect(before !== after)
        #expect(try container.resolve() as Service === after)
    }

    @Test func dipRegisterCallShapesWithZeroToSixArgumentsCompile() throws {
        container.register(.unique, type: Probe.self, tag: "0") { Probe() }
        container.register(.unique, type: Probe.self, tag: "1") { (a: Int) in Probe(a) }
        container.register(.unique, type: Probe.self, tag: "2") { (a: Int, b: Int) in Probe(a, b) }
        container.register(.unique, type: Probe.self, tag: "3") { (a: Int, b: Int, c: Int) in Probe(a, b, c) }
        container.register(.unique, type: Probe.self, tag: "4") { (a: Int, b: Int, c: Int, d: Int) in
            Probe(a, b, c, d)
        }
        container.register(.unique, type: Probe.self, tag: "5") { (a: Int, b: Int, c: Int, d: Int, e: Int) in
            Probe(a, b, c, d, e)
        }
        container.register(.unique, type: Probe.self, tag: "6") {
            (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) in Probe(a, b, c, d, e, f)
        }
        #expect(try (container.resolve(tag: "0") as Probe).values == [])
        #expect(try (container.resolve(tag: "1", arguments: 1) as Probe).values == [1])
        #expect(try (container.resolve(tag: "2", arguments: 1, 2) as Probe).values == [1, 2])
        #expect(try (container.resolve(tag: "3", arguments: 1, 2, 3) as Probe).values == [1, 2, 3])
        #expect(try (container.resolve(tag: "4", arguments: 1, 2, 3, 4) as Probe).values == [1, 2, 3, 4])
        #expect(try (container.resolve(tag: "5", arguments: 1, 2, 3, 4, 5) as Probe).values == [1, 2, 3, 4, 5])
        #expect(
            try (container.resolve(tag: "6", arguments: 1, 2, 3, 4, 5, 6) as Probe).values == [1, 2, 3, 4, 5, 6])
    }

    @Test func dipRegisterWithExplicitFactoryLabelCompiles() throws {
        container.register(.singleton, type: Service.self, tag: nil, factory: { ServiceImp() })
        container.register(tag: "cell", factory: { (id: Int, title: String) in Cell(id: id, title: title) })
        container.register(factory: { Clock() })
        _ = try container.resolve() as Service
        _ = try container.resolve() as Clock
        let cell: Cell = try container.resolve(tag: "cell", arguments: 7, "seven")
        #expect(cell.id == 7)
        #expect(cell.title == "seven")
    }

    @Test func registerAcceptsInitializerReferences() throws {
        container.register(factory: Cell.init(id:title:))
        container.register(.singleton, factory: Clock.init)
        let cell: Cell = try container.resolve(arguments: 3, "three")
        #expect(cell.id == 3)
        _ = try container.resolve() as Clock
    }

    @Test func configBlockRunsWithTheNewContainer() throws {
        var seen: ObjectIdentifier?
        let configured = DependencyContainer { container in
            seen = ObjectIdentifier(container)
            container.register(.singleton) { ServiceImp() as Service }
        }
        #expect(seen == ObjectIdentifier(configured))
        _ = try configured.resolve() as Service
    }

    @Test func dipInitializerArgumentsCompile() throws {
        let configured = DependencyContainer(autoInjectProperties: false, threadSafe: false) { container in
            container.register { Clock() }
        }
        #expect(configured.autoInjectProperties == false)
        _ = try configured.resolve() as Clock
        #expect(DependencyContainer().autoInjectProperties)
    }

    @Test func registeringDoesNotCallTheFactory() {
        let counter = Counter()
        for scope in ComponentScope.allCases {
            container.register(scope, tag: "\(scope)") { () -> Service in
                counter.increment()
                return ServiceImp()
            }
        }
        #expect(counter.count == 0)
    }
}
