/// What the events list module offers other modules. They resolve it through their container's
/// collaborators; none of them imports the events list module.
public protocol EventsListRouting: AnyObject {
    /// The titles the list shows, in order.
    var visibleTitles: [String] { get }
    /// Reloads the list from the data store.
    func refresh()
}

/// What the "add event" module offers other modules.
public protocol AddEventRouting: AnyObject {
    /// Saves a new event and returns to the list.
    func addEvent(title: String, day: Int)
}
