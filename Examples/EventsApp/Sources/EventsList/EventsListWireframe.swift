import Root

/// Shows the events list and routes to the "add event" screen.
public final class EventsListWireframe: EventsListRouting {
    /// The store the list reads.
    public let dataStore: DataStore
    /// The list's presenter.
    public let presenter: EventsListPresenter
    /// The "add event" screen, set by a property hook because that screen points back at this one.
    public var addEventWireframe: AddEventRouting?

    /// Creates the wireframe.
    public init(dataStore: DataStore, presenter: EventsListPresenter, addEventWireframe: AddEventRouting? = nil) {
        self.dataStore = dataStore
        self.presenter = presenter
        self.addEventWireframe = addEventWireframe
    }

    /// The titles the list shows, in order.
    public var visibleTitles: [String] { presenter.rows.map(\.title) }

    /// Reloads the list from the data store.
    public func refresh() {
        presenter.reload()
    }
}

/// Turns the store's events into rows.
public final class EventsListPresenter {
    /// The store the rows come from.
    public let dataStore: DataStore
    /// Makes one row per event.
    public let makeRow: (Event) throws -> EventRow
    /// The rows shown, after the last `reload()`.
    public private(set) var rows: [EventRow] = []

    /// Creates the presenter.
    public init(dataStore: DataStore, makeRow: @escaping (Event) throws -> EventRow) {
        self.dataStore = dataStore
        self.makeRow = makeRow
    }

    /// Rebuilds the rows from the store; events whose row cannot be made are skipped.
    public func reload() {
        rows = dataStore.events.compactMap { try? makeRow($0) }
    }
}

/// One row of the list.
public final class EventRow {
    /// The row's text.
    public let title: String

    /// Creates the row of `event`.
    public init(event: Event) {
        title = "Day \(event.day): \(event.title)"
    }
}
