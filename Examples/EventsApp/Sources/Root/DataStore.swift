import Foundation

/// Where events are kept. One store is shared by every module: the root module registers it as a singleton.
public protocol DataStore: AnyObject {
    /// Every event, sorted by day.
    var events: [Event] { get }
    /// Adds an event.
    func add(_ event: Event)
}

/// A `DataStore` in memory, safe to use from any thread.
public final class InMemoryDataStore: DataStore, @unchecked Sendable {  // safe: `stored` is only used under `lock`
    private let lock = NSLock()
    private var stored: [Event]

    /// Creates a store holding `events`.
    public init(events: [Event] = []) {
        stored = events
    }

    /// Every event, sorted by day.
    public var events: [Event] {
        lock.withLock { stored.sorted { $0.day < $1.day } }
    }

    /// Adds an event.
    public func add(_ event: Event) {
        lock.withLock { stored.append(event) }
    }
}
