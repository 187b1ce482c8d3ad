import AddEvent
import EventsApp
import EventsList
import Plexus
import Root
import Testing

@Suite struct AppGraphTests {
    let app = AppContainers()

    @Test func everyModuleBuildsItsGraph() throws {
        try app.validate()
    }

    @Test(arguments: ["root", "eventsList", "addEvent"])
    func moduleHasNoMissingRegistrationAndNoCycle(name: String) throws {
        let container = try #require(app.containers.first { $0.name == name }?.container)
        try container.validate(Event.sample)
    }

    @Test func wireframesPointAtEachOtherAcrossModules() throws {
        let list: EventsListWireframe = try app.eventsList.container.resolve()
        let addEvent = try #require(list.addEventWireframe as? AddEventWireframe)
        #expect(addEvent.eventsListWireframe === list)
    }

    @Test func everyModuleSharesTheRootStore() throws {
        let store: DataStore = try app.root.container.resolve()
        let list: EventsListWireframe = try app.eventsList.container.resolve()
        let addEvent: AddEventWireframe = try app.addEvent.container.resolve()
        #expect(list.dataStore === store)
        #expect(list.presenter.dataStore === store)
        #expect(addEvent.dataStore === store)
    }

    @Test func theStoreAccessorAndDipStyleResolvesShareOneInstance() throws {
        let store: DataStore = try app.root.container.resolve()
        #expect(app.root.container.rootServices.dataStore() === store)
        let list: EventsListWireframe = try app.eventsList.container.resolve()
        #expect(list.dataStore === app.root.container.rootServices.dataStore())
    }

    @Test func aTestCanReplaceTheStoreAccessor() throws {
        let app = AppContainers()
        let fixture = InMemoryDataStore(events: [Event.sample])
        app.root.container.rootServices.dataStore.replace { fixture }
        let list: EventsListWireframe = try app.eventsList.container.resolve()
        #expect(list.dataStore === fixture)
        #expect(list.visibleTitles == ["Day 3: Team lunch"])
        #expect(app.root.container.defaults.rootServices.dataStore() !== fixture)
    }

    @Test func rootDoesNotSeeTheFeatureModules() {
        let error = #expect(throws: ResolutionError.self) {
            try app.root.container.resolve() as EventsListWireframe
        }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(EventsListWireframe.self))
    }

    @Test func validateCatchesAMissingStore() {
        let app = AppContainers()
        app.root.container.reset()
        let error = #expect(throws: ResolutionError.self) { try app.validate() }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(DataStore.self))
        #expect("\(error!)".contains("No definition registered for DataStore"))
    }

    @Test func validateCatchesAConstructorCycle() {
        let broken = AppContainers()
        // The mistake: both back-references moved from property hooks into initializers.
        let eventsList = broken.eventsList.container
        eventsList.register { c in
            EventsListWireframe(
                dataStore: try c.resolve(), presenter: try c.resolve(),
                addEventWireframe: try c.resolve() as AddEventRouting)
        }
        .implements(EventsListRouting.self)
        let addEvent = broken.addEvent.container
        addEvent.register { c in
            AddEventWireframe(eventsListWireframe: try c.resolve() as EventsListRouting)
        }
        .implements(AddEventRouting.self)

        let error = #expect(throws: ResolutionError.self) { try broken.validate() }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path.first.map { ObjectIdentifier($0.type) } == ObjectIdentifier(EventsListWireframe.self))
        #expect(path.count == 3)
        #expect("\(error!)".contains("Circular dependency: EventsListWireframe -> "))
    }
}
