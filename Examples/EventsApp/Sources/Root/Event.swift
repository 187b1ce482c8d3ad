/// An entry in the user's calendar.
public struct Event: Equatable, Sendable {
    /// What the event is called.
    public let title: String
    /// The day it happens, as days since the app's epoch.
    public let day: Int

    /// Creates an event.
    public init(title: String, day: Int) {
        self.title = title
        self.day = day
    }

    /// An event for previews, tests and `validate`.
    public static let sample = Event(title: "Team lunch", day: 3)
}
