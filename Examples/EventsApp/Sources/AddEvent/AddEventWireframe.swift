import Root

/// Shows the "add event" form, saves the event and returns to the list.
public final class AddEventWireframe: AddEventRouting {
    /// The list to return to. Weak: the list owns this screen.
    public weak var eventsListWireframe: EventsListRouting?
    /// The store new events go to.
    public var dataStore: DataStore?

    /// Creates the wireframe; both references are usually set by property hooks.
    public init(eventsListWireframe: EventsListRouting? = nil, dataStore: DataStore? = nil) {
        self.eventsListWireframe = eventsListWireframe
        self.dataStore = dataStore
    }

    /// Saves a new event and refreshes the list.
    public func addEvent(title: String, day: Int) {
        dataStore?.add(Event(title: title, day: day))
        eventsListWireframe?.refresh()
    }
}
