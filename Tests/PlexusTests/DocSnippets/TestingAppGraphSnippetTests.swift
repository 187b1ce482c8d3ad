import Plexus
import PlexusTesting
import Testing

// The snippets of Testing.md's "Checking a graph" and "Runtime arguments" and its test that replaces a definition,
// kept here as the article writes them (the module registrations it elides filled in, with the fixture types they
// assume) so that they cannot rot. The spy that does not compile under Swift 6 is the article's point, not code.

private protocol DataStore: AnyObject, Sendable { var events: [Event] { get } }
private struct Event: Equatable, Sendable {
    let title: String
    static let sample = Event(title: "Sample")
}
private struct EventID: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
private final class CoreDataStore: DataStore {
    var events: [Event] { [] }
}
private final class InMemoryStore: DataStore {
    let events: [Event]
    init(events: [Event]) { self.events = events }
}
private final class EventsListPresenter {
    let events: [Event]
    init(store: DataStore) { events = store.events }
}
private final class AddEventPresenter {
    let id: EventID
    init(id: EventID) { self.id = id }
}
private struct Cell {
    let id: Int
    let title: String
}

struct AppContainers {
    let root = DependencyContainer()
    let eventsList = DependencyContainer()
    let addEvent = DependencyContainer()

    init() {
        root.register(.singleton) { CoreDataStore() as DataStore }
        eventsList.register { c in EventsListPresenter(store: try c.resolve()) }
        addEvent.register { (id: EventID) in AddEventPresenter(id: id) }
        eventsList.collaborate(with: addEvent, root)
        addEvent.collaborate(with: eventsList, root)
    }
}

@Suite(.silencingPlexusLogs) struct AppGraphTests {
    let app = AppContainers()

    @Test func everyModuleBuildsItsGraph() throws {
        try app.root.validate()
        try app.eventsList.validate()
        try app.addEvent.validate(EventID(42))  // an argument set for definitions that take arguments
    }

    @Test func validateResolvesADefinitionWithEachMatchingArgumentSet() throws {
        let container = DependencyContainer()
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }
        try container.validate((1, "title"))
    }

    @Test func aDefinitionWithoutItsArgumentSetIsAutoWiredAndFailsValidation() {
        let container = DependencyContainer()
        container.register { (id: EventID) in AddEventPresenter(id: id) }
        #expect(throws: ResolutionError.self) { try container.validate() }
    }

    @Test func listShowsCachedEvents() throws {
        let app = AppContainers()
        app.root.register(.singleton) { InMemoryStore(events: [.sample]) as DataStore }
        let presenter: EventsListPresenter = try app.eventsList.resolve()
        #expect(presenter.events == [.sample])
    }
}
