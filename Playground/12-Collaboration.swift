import Plexus

// The three-module example of Dip's README: a root module owns the data store; the events list and the
// "add event" screens live in two feature modules that need each other.
private protocol DataStore: AnyObject {}

private final class CoreDataStore: DataStore {}

private final class EventsListWireframe {
    let dataStore: DataStore
    var addEventWireframe: AddEventWireframe?
    init(dataStore: DataStore) { self.dataStore = dataStore }
}

private final class AddEventWireframe {
    weak var eventsListWireframe: EventsListWireframe?
    var dataStore: DataStore?
}

@MainActor
func collaboration() throws {
    let root = DependencyContainer()
    let eventsList = DependencyContainer()
    let addEvent = DependencyContainer()
    root.register(.singleton) { CoreDataStore() as DataStore }
    eventsList.register { c in EventsListWireframe(dataStore: try c.resolve()) }
        .resolvingProperties { c, w in w.addEventWireframe = try c.resolve() }
    addEvent.register { AddEventWireframe() }
        .resolvingProperties { c, w in
            w.eventsListWireframe = try c.resolve()
            w.dataStore = try c.resolve()
        }
    eventsList.collaborate(with: addEvent, root)
    addEvent.collaborate(with: eventsList, root)
    let wireframe: EventsListWireframe = try eventsList.resolve()

    check(
        wireframe.addEventWireframe?.eventsListWireframe === wireframe,
        "wireframe.addEventWireframe?.eventsListWireframe === wireframe (the cycle closes across modules)")
    let store: DataStore = try root.resolve()
    check(
        wireframe.dataStore === store && wireframe.addEventWireframe?.dataStore === store,
        "both modules get the root's DataStore singleton, which lives in root")

    let fromRoot = caught { try root.resolve() as EventsListWireframe }
    if case .definitionNotFound? = fromRoot as? ResolutionError {
        check(true, "collaboration is directional: root does not see the feature modules")
    } else {
        check(false, "root cannot resolve EventsListWireframe (got \(String(describing: fromRoot)))")
    }

    let settings = DependencyContainer()
    settings.collaborate(with: root)
    let sibling = caught { try settings.resolve() as AddEventWireframe }
    if case .definitionNotFound? = sibling as? ResolutionError {
        check(true, "two modules that only collaborate with root do not see each other")
    } else {
        check(false, "siblings stay apart (got \(String(describing: sibling)))")
    }
    let settingsStore: DataStore = try settings.resolve()
    check(settingsStore === store, "a module that joins later still gets the one DataStore")

    root.reset()
    let afterReset = caught { try eventsList.resolve() as EventsListWireframe }
    check(afterReset is ResolutionError, "after root.reset(), the modules no longer find a DataStore")
}
