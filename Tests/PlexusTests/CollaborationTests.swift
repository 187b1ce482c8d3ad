import Foundation
import Plexus
import PlexusTesting
import Testing

/// Whether two metatypes are the same type (`#expect` cannot compare metatypes with `==` directly).
private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

// MARK: - The wireframe example of Dip's collaboration guide

private protocol DataStore: AnyObject {}

private final class CoreDataStore: DataStore {}

private final class EventsListWireframe {
    let dataStore: DataStore
    var addEventWireframe: AddEventWireframe?

    init(dataStore: DataStore) {
        self.dataStore = dataStore
    }
}

private final class AddEventWireframe {
    weak var eventsListWireframe: EventsListWireframe?
    var dataStore: DataStore?
}

// MARK: - Other fixtures

/// A value that says which container made it.
private struct Named: Equatable {
    let name: String
}

private final class Store {}

private final class Owned {
    var owner: ObjectIdentifier?
}

private final class Logger {}

private struct LoggerPair {
    let first: Logger
    let second: Logger
}

private struct Missing {}

private struct Needy {
    let missing: Missing
}

private enum CollaboratorError: Error, Equatable {
    case factoryFailed
    case hookFailed
}

/// Registers in `first` a pair that resolves a `Logger` from `first` and one from `second` in one graph, and checks
/// that each graph gets one logger for both, and the next graph another.
private func expectOneLoggerPerGraph(_ first: DependencyContainer, _ second: DependencyContainer) throws {
    first.register { [second] in LoggerPair(first: try first.resolve(), second: try second.resolve()) }
    let pair: LoggerPair = try first.resolve()
    let other: LoggerPair = try first.resolve()
    #expect(pair.first === pair.second)
    #expect(other.first === other.second)
    #expect(pair.first !== other.first)
}

/// Whether `error` is `definitionNotFound` for a key of `type`.
private func isNotFound(_ error: ResolutionError?, _ type: Any.Type) -> Bool {
    guard case .definitionNotFound(let key) = error else { return false }
    return key.type == type
}

@Suite(.silencingPlexusLogs) struct CollaborationTests {
    let root = DependencyContainer()
    let eventsList = DependencyContainer()
    let addEvent = DependencyContainer()

    // MARK: The wireframe example

    private func registerWireframes() {
        root.register(.singleton) { CoreDataStore() as DataStore }
        eventsList.register { [eventsList] in EventsListWireframe(dataStore: try eventsList.resolve()) }
            .resolvingProperties { c, w in w.addEventWireframe = try c.resolve() }
        addEvent.register { AddEventWireframe() }
            .resolvingProperties { c, w in
                w.eventsListWireframe = try c.resolve()
                w.dataStore = try c.resolve()
            }
        eventsList.collaborate(with: addEvent, root)
        addEvent.collaborate(with: eventsList, root)
    }

    @Test func wireframeExampleClosesTheCycleAcrossModules() throws {
        registerWireframes()
        let wireframe: EventsListWireframe = try eventsList.resolve()
        let addEventWireframe = try #require(wireframe.addEventWireframe)
        #expect(addEventWireframe.eventsListWireframe === wireframe)
    }

    @Test func wireframeExampleUsesOneDataStore() throws {
        registerWireframes()
        let wireframe: EventsListWireframe = try eventsList.resolve()
        let again: EventsListWireframe = try eventsList.resolve()
        let store: DataStore = try root.resolve()
        #expect(wireframe.dataStore === store)
        #expect(wireframe.addEventWireframe?.dataStore === store)
        #expect(again.dataStore === store)
        #expect(again !== wireframe)
    }

    // MARK: Direction

    @Test func collaborationIsDirectional() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        b.register { Named(name: "b") }
        a.register { Store() }
        a.collaborate(with: b)

        #expect(try a.resolve(Named.self) is Named)
        let error = #expect(throws: ResolutionError.self) { try b.resolve() as Store }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Store.self, typeOfArguments: Void.self, tag: nil))
    }

    @Test func siblingsOfOneRootDoNotSeeEachOther() throws {
        let first = DependencyContainer()
        let second = DependencyContainer()
        root.register { Named(name: "root") }
        first.register { Store() }
        first.collaborate(with: root)
        second.collaborate(with: root)

        #expect(try second.resolve() as Named == Named(name: "root"))
        #expect(try first.resolve() as Named == Named(name: "root"))
        let error = #expect(throws: ResolutionError.self) { try second.resolve() as Store }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(sameType(key.type, Store.self))
    }

    // MARK: Search order

    @Test func collaborationIsTransitive() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        let c = DependencyContainer()
        c.register { Named(name: "c") }
        a.collaborate(with: b)
        b.collaborate(with: c)

        #expect(try a.resolve() as Named == Named(name: "c"))
    }

    @Test func collaboratorsAreSearchedDepthFirst() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        let c = DependencyContainer()
        let d = DependencyContainer()
        d.register { Named(name: "d") }
        c.register { Named(name: "c") }
        b.collaborate(with: d)
        a.collaborate(with: b, c)

        // b has nothing itself, but its collaborator d is searched before a's next collaborator c.
        #expect(try a.resolve() as Named == Named(name: "d"))
    }

    @Test(arguments: [["b", "c"], ["c", "b"]])
    func collaboratorsAreSearchedInTheOrderGiven(order: [String]) throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        let c = DependencyContainer()
        b.register { Named(name: "b") }
        c.register { Named(name: "c") }
        let byName = ["b": b, "c": c]
        a.collaborate(with: order.compactMap { byName[$0] })

        #expect(try a.resolve() as Named == Named(name: order[0]))
    }

    @Test func localDefinitionWins() throws {
        let child = DependencyContainer()
        root.register { Named(name: "root") }
        child.register { Named(name: "child") }
        child.collaborate(with: root)

        #expect(try child.resolve() as Named == Named(name: "child"))
        #expect(try root.resolve() as Named == Named(name: "root"))
    }

    @Test func localUntaggedFallbackWinsOverCollaboratorsExactTag() throws {
        let child = DependencyContainer()
        root.register(tag: "prod") { Named(name: "root prod") }
        child.register { Named(name: "child") }
        child.collaborate(with: root)

        // Lookup steps 1-4 run in the container before any collaborator is asked.
        #expect(try child.resolve(tag: "prod") as Named == Named(name: "child"))
    }

    @Test func taggedDefinitionIsFoundInCollaborator() throws {
        let child = DependencyContainer()
        root.register(tag: "prod") { Named(name: "root prod") }
        child.collaborate(with: root)

        #expect(try child.resolve(tag: "prod") as Named == Named(name: "root prod"))
        let error = #expect(throws: ResolutionError.self) { try child.resolve() as Named }
        #expect(isNotFound(error, Named.self))
    }

    @Test func optionalResolvesThroughCollaborator() throws {
        let child = DependencyContainer()
        root.register { Named(name: "root") }
        child.collaborate(with: root)

        let named: Named? = try child.resolve()
        #expect(named == Named(name: "root"))
    }

    @Test func weaklyTypedResolveFindsCollaboratorDefinition() throws {
        let child = DependencyContainer()
        root.register { Named(name: "root") }
        child.collaborate(with: root)

        let named = try child.resolve(Named.self) as? Named
        #expect(named == Named(name: "root"))
    }

    // MARK: Link cycles

    @Test func linkCycleEndsInDefinitionNotFound() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        a.collaborate(with: b)
        b.collaborate(with: a)

        let error = #expect(throws: ResolutionError.self) { try a.resolve() as Named }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Named.self, typeOfArguments: Void.self, tag: nil))
    }

    @Test func longLinkCycleEndsInDefinitionNotFoundAndStillFindsDefinitions() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        let c = DependencyContainer()
        a.collaborate(with: b)
        b.collaborate(with: c)
        c.collaborate(with: a)
        c.register { Store() }

        let fromB = #expect(throws: ResolutionError.self) { try b.resolve() as Named }
        let fromC = #expect(throws: ResolutionError.self) { try c.resolve() as Named }
        #expect(isNotFound(fromB, Named.self))
        #expect(isNotFound(fromC, Named.self))
        #expect(try a.resolve(Store.self) is Store)
        #expect(try b.resolve(Store.self) is Store)
    }

    @Test func collaboratingWithItselfIsIgnored() throws {
        let a = DependencyContainer()
        let b = DependencyContainer()
        b.register { Named(name: "b") }
        a.collaborate(with: a)
        a.collaborate(with: a, b)

        #expect(try a.resolve() as Named == Named(name: "b"))
        let error = #expect(throws: ResolutionError.self) { try a.resolve() as Store }
        guard case .definitionNotFound = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
    }

    @Test func notFoundThroughCollaboratorsListsTheirNearMisses() throws {
        let child = DependencyContainer()
        root.register(tag: "prod") { Named(name: "root prod") }
        child.collaborate(with: root)

        let error = #expect(throws: ResolutionError.self) { try child.resolve(tag: "dev") as Named }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Named.self, typeOfArguments: Void.self, tag: "dev"))
        #expect(error?.description.contains("Near miss: Named is registered for tag \"prod\".") == true)
    }

    // MARK: Lifetime of the links

    @Test func collaboratorsAreHeldWeakly() throws {
        let child = DependencyContainer()
        weak var weakCollaborator: DependencyContainer?
        do {
            let collaborator = DependencyContainer()
            collaborator.register { Named(name: "collaborator") }
            child.collaborate(with: collaborator)
            weakCollaborator = collaborator
            #expect(try child.resolve() as Named == Named(name: "collaborator"))
        }
        #expect(weakCollaborator == nil)
        let error = #expect(throws: ResolutionError.self) { try child.resolve() as Named }
        guard case .definitionNotFound = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
    }

    @Test func freedCollaboratorDropsOutAndOthersRemain() throws {
        let child = DependencyContainer()
        let survivor = DependencyContainer()
        survivor.register { Named(name: "survivor") }
        do {
            let doomed = DependencyContainer()
            doomed.register { Named(name: "doomed") }
            child.collaborate(with: [doomed, survivor])
            #expect(try child.resolve() as Named == Named(name: "doomed"))
        }
        #expect(try child.resolve() as Named == Named(name: "survivor"))
    }

    // MARK: Ownership of singletons

    @Test(arguments: [true, false])
    func singletonIsTheSameThroughEveryCollaborator(resolvedBeforeCollaborate: Bool) throws {
        let first = DependencyContainer()
        let second = DependencyContainer()
        let grandchild = DependencyContainer()
        let counter = Counter()
        root.register(.singleton) {
            counter.increment()
            return Store()
        }
        let early: Store? = resolvedBeforeCollaborate ? try root.resolve() : nil
        first.collaborate(with: root)
        second.collaborate(with: root)
        grandchild.collaborate(with: first)

        let fromFirst: Store = try first.resolve()
        let fromSecond: Store = try second.resolve()
        let fromGrandchild: Store = try grandchild.resolve()
        let fromRoot: Store = try root.resolve()
        #expect(fromFirst === fromRoot)
        #expect(fromSecond === fromRoot)
        #expect(fromGrandchild === fromRoot)
        if let early { #expect(early === fromRoot) }
        #expect(counter.count == 1)
    }

    @Test func definitionFoundInCollaboratorIsResolvedByItsOwner() throws {
        let child = DependencyContainer()
        root.register { Owned() }
            .resolvingProperties { c, owned in owned.owner = ObjectIdentifier(c) }
        child.collaborate(with: root)

        let owned: Owned = try child.resolve()
        #expect(owned.owner == ObjectIdentifier(root))
    }

    @Test func resetOfOwnerReleasesItsSingletonEverywhere() throws {
        let child = DependencyContainer()
        root.register(.singleton) { Store() }
        child.collaborate(with: root)
        weak var weakStore: Store?
        do {
            let store: Store = try child.resolve()
            weakStore = store
            #expect(try root.resolve() as Store === store)
        }
        #expect(weakStore != nil)

        root.reset()

        #expect(weakStore == nil)
        let error = #expect(throws: ResolutionError.self) { try child.resolve() as Store }
        #expect(isNotFound(error, Store.self))
    }

    @Test func resetOfOwnerKeepsTheLinkForNewDefinitions() throws {
        let child = DependencyContainer()
        root.register(.singleton) { Named(name: "before") }
        child.collaborate(with: root)
        #expect(try child.resolve() as Named == Named(name: "before"))

        root.reset()
        root.register(.singleton) { Named(name: "after") }

        #expect(try child.resolve() as Named == Named(name: "after"))
    }

    @Test func rememberedRouteFollowsRemovalAndReregistrationInTheOwner() throws {
        // A hook-free `.unique` definition two links away: the first container remembers where it was found and
        // then goes there directly; every change in the owner must send it back to the general lookup.
        let middle = DependencyContainer()
        let child = DependencyContainer()
        child.collaborate(with: middle)
        middle.collaborate(with: root)
        root.register(.unique) { Named(name: "first") }
        for _ in 0..<3 { #expect(try child.resolve() as Named == Named(name: "first")) }

        let second = root.register(.unique) { Named(name: "second") }
        #expect(try child.resolve() as Named == Named(name: "second"))

        root.remove(second)
        let error = #expect(throws: ResolutionError.self) { try child.resolve() as Named }
        #expect(isNotFound(error, Named.self))

        root.register(.unique) { Named(name: "third") }
        #expect(try child.resolve() as Named == Named(name: "third"))
        root.reset()
        #expect(throws: ResolutionError.self) { try child.resolve() as Named }
    }

    // MARK: Graphs across containers

    @Test func sharedInstanceIsReusedAcrossContainersWithinOneGraph() throws {
        let first = DependencyContainer()
        let second = DependencyContainer()
        root.register { Logger() }
        first.collaborate(with: root)
        second.collaborate(with: root)
        try expectOneLoggerPerGraph(first, second)
    }

    @Test func oneSharedDefinitionRegisteredInTwoContainersGivesOneInstancePerGraph() throws {
        // `.shared` is one instance per definition within a graph, in any container. The definition is
        // registered in both containers (each keeps a registration of its own); a graph that resolves it through each
        // gets one instance, and the next graph another.
        let first = DependencyContainer()
        let second = DependencyContainer()
        let logger = second.register(.shared) { Logger() }
        first.register(logger)
        first.collaborate(with: second)
        try expectOneLoggerPerGraph(first, second)
        // Outside a common graph, each resolve is a graph of its own.
        #expect(try first.resolve() as Logger !== second.resolve() as Logger)
    }

    @Test func constructorCycleAcrossCollaboratorsThrowsWithPath() throws {
        let left = DependencyContainer()
        let right = DependencyContainer()
        left.register { [unowned left] () throws -> Store in
            _ = try left.resolve() as Logger
            return Store()
        }
        right.register { [unowned right] () throws -> Logger in
            _ = try right.resolve() as Store
            return Logger()
        }
        left.collaborate(with: right)
        right.collaborate(with: left)

        let error = #expect(throws: ResolutionError.self) { try right.resolve() as Logger }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path.map(\.description) == ["Logger", "Store", "Logger"])
        #expect(error?.description.hasPrefix("Circular dependency: Logger -> Store -> Logger") == true)
    }

    // MARK: Errors

    @Test func collaboratorFactoryErrorPropagatesUnchanged() throws {
        let child = DependencyContainer()
        let fallback = DependencyContainer()
        let fallbackCalls = Counter()
        root.register { () throws -> Named in throw CollaboratorError.factoryFailed }
        fallback.register {
            fallbackCalls.increment()
            return Named(name: "fallback")
        }
        child.collaborate(with: root, fallback)

        let error = #expect(throws: CollaboratorError.self) { try child.resolve() as Named }
        #expect(error == .factoryFailed)
        #expect(fallbackCalls.count == 0)
    }

    @Test func collaboratorHookErrorPropagatesUnchanged() throws {
        let child = DependencyContainer()
        let fallback = DependencyContainer()
        root.register { Store() }
            .resolvingProperties { _, _ in throw CollaboratorError.hookFailed }
        fallback.register { Store() }
        child.collaborate(with: root, fallback)

        let error = #expect(throws: CollaboratorError.self) { try child.resolve() as Store }
        #expect(error == .hookFailed)
    }

    @Test func missingDependencyInsideCollaboratorFactoryIsNotTreatedAsNotFound() throws {
        let child = DependencyContainer()
        let fallback = DependencyContainer()
        let fallbackCalls = Counter()
        root.register { [root] in Needy(missing: try root.resolve()) }
        fallback.register {
            fallbackCalls.increment()
            return Needy(missing: Missing())
        }
        child.collaborate(with: root, fallback)

        let error = #expect(throws: ResolutionError.self) { try child.resolve() as Needy }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(sameType(key.type, Missing.self))
        #expect(fallbackCalls.count == 0)
    }

    @Test func nextCollaboratorIsTriedOnNotFound() throws {
        let child = DependencyContainer()
        let empty = DependencyContainer()
        let full = DependencyContainer()
        empty.register(tag: "other") { Named(name: "empty other") }
        full.register { Named(name: "full") }
        child.collaborate(with: empty, full)

        #expect(try child.resolve() as Named == Named(name: "full"))
    }

    @Test func containerStaysUsableAfterCollaboratorError() throws {
        let child = DependencyContainer()
        let calls = Counter()
        root.register { () throws -> Named in
            calls.increment()
            if calls.count == 1 { throw CollaboratorError.factoryFailed }
            return Named(name: "recovered")
        }
        child.collaborate(with: root)

        #expect(throws: CollaboratorError.self) { try child.resolve() as Named }
        #expect(try child.resolve() as Named == Named(name: "recovered"))
    }
}
