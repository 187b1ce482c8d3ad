import Foundation
import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article Testing.md that capture the container or show test doubles under Swift 6,
// kept here verbatim (the article's tests are tests of this suite, with the fixture types they assume) so that
// they cannot rot.

private protocol Analytics: AnyObject {
    func track(_ event: String)
}

/// A spy that is not `Sendable`: the container makes it, so no `@Sendable` factory captures it.
private final class SpyAnalytics: Analytics {
    var events: [String] = []
    func track(_ event: String) { events.append(event) }
}

private final class EventsPresenter {
    let analytics: Analytics
    init(analytics: Analytics) { self.analytics = analytics }
    func appear() { analytics.track("events.appear") }
}

private final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
}
private final class Child {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

/// A value guarded by a lock. `@unchecked Sendable` is safe: `value` is only touched while holding `lock`.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

private final class SendableSpyAnalytics: Analytics, Sendable {
    private let recorded = Locked<[String]>([])
    var events: [String] { recorded.withLock { $0 } }
    func track(_ event: String) { recorded.withLock { $0.append(event) } }
}

@Suite(.silencingPlexusLogs) struct TestingSnippetTests {
    @Test func validateCatchesAConstructorCycle() throws {
        let broken = DependencyContainer()
        broken.register { c in Parent(child: try c.resolve()) }
        broken.register { c in Child(parent: try c.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try broken.validate() }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(path.count == 3)
        #expect("\(error!)".hasPrefix("Validation of Parent failed: Circular dependency: Parent -> Child -> Parent"))
    }

    @Test func appearingIsTracked() throws {
        let container = DependencyContainer()
        container.register(.singleton) { SpyAnalytics() }
            .implements(Analytics.self)
        container.register { c in EventsPresenter(analytics: try c.resolve()) }

        let presenter: EventsPresenter = try container.resolve()
        presenter.appear()

        let spy: SpyAnalytics = try container.resolve()  // the instance the presenter got
        #expect(spy.events == ["events.appear"])
    }

    @Test func appearingIsTrackedWithACapturedSpy() throws {
        let spy = SendableSpyAnalytics()
        let container = DependencyContainer()
        container.register { spy as Analytics }  // compiles: the spy is Sendable
        container.register { c in EventsPresenter(analytics: try c.resolve()) }

        let presenter: EventsPresenter = try container.resolve()
        presenter.appear()
        #expect(spy.events == ["events.appear"])
    }

    @Test func sendableSpyRecordsFromManyThreads() throws {
        let spy = SendableSpyAnalytics()
        let container = DependencyContainer()
        container.register { spy as Analytics }
        container.register { c in EventsPresenter(analytics: try c.resolve()) }
        let finished = runOnThreads(4) { _ in
            for _ in 0..<100 { (try? container.resolve() as EventsPresenter)?.appear() }
        }
        #expect(finished)
        #expect(spy.events.count == 400)
    }
}
