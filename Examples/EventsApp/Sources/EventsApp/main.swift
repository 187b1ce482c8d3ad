import AddEvent
import EventsList
import Foundation
import Plexus
import Root

// A short session of the app: open the events list, add an event through the "add event" screen, and check
// that the modules share one graph. Exits with status 1 if a check fails.

var failures = 0

@MainActor
func check(_ condition: Bool, _ message: String) {
    print("\(condition ? "✓" : "✗") \(message)")
    if !condition { failures += 1 }
}

let app = AppContainers(store: { InMemoryDataStore(events: [Event(title: "Standup", day: 1)]) })

do {
    try app.validate()
    check(true, "every module's container builds its graph (validate)")

    let list: EventsListWireframe = try app.eventsList.container.resolve()
    let store: DataStore = try app.root.container.resolve()
    guard let addEvent = list.addEventWireframe as? AddEventWireframe else {
        check(false, "the events list got its \"add event\" wireframe from the addEvent module")
        exit(1)
    }
    check(true, "the events list got its \"add event\" wireframe from the addEvent module")
    check(addEvent.eventsListWireframe === list, "addEvent.eventsListWireframe === list: the cycle closes")
    check(list.dataStore === store, "the list's store is the root module's singleton")
    check(addEvent.dataStore === store, "the \"add event\" screen's store is the same singleton")
    check(list.presenter.dataStore === store, "so is the presenter's")
    check(
        app.root.container.rootServices.dataStore() === store,
        "the root declares it as a typed accessor: rootServices.dataStore() is the same instance")
    print("List: \(list.visibleTitles)")

    addEvent.addEvent(title: "Team lunch", day: 3)
    print("List after adding an event: \(list.visibleTitles)")
    check(list.visibleTitles == ["Day 1: Standup", "Day 3: Team lunch"], "adding an event refreshes the list")

    let another: EventsListWireframe = try app.eventsList.container.resolve()
    check(another !== list, "a second resolve opens a second list (.shared is per resolution graph)")
    check(another.dataStore === store, "but it shares the same store")
} catch {
    check(false, "the app resolves its graph (threw: \(error))")
}

if failures > 0 {
    print("\(failures) check(s) failed")
    exit(1)
}
print("All checks passed")
