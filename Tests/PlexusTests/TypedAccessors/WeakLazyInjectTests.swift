import Plexus
import PlexusTesting
import Testing

private final class Session: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private let sessionsMade = Counter()

extension DependencyContainer {
    fileprivate var weakSession: Factory<Session> { self { Session(serial: sessionsMade.increment()) }.weakSingleton }
}

private final class Screen {
    @WeakLazyInject var session: Session?
    init(container: DependencyContainer) { _session = WeakLazyInject(\.weakSession, container: container) }
}

@Suite(.silencingPlexusLogs) struct WeakLazyInjectTests {
    let container = DependencyContainer()

    @Test func theInstanceIsResolvedOnFirstReadAndKeptWhileAlive() {
        let screen = Screen(container: container)
        let held = screen.session
        #expect(screen.session === held)
        #expect(container.weakSession() === held)
    }

    @Test func aReleasedInstanceReadsNil() {
        let screen = Screen(container: container)
        var first: Session? = screen.session
        #expect(first != nil)
        first = nil
        #expect(screen.session == nil)
        #expect(container.weakSession() !== first)
    }

    @Test func thePropertyDoesNotKeepTheInstanceAlive() {
        let screen = Screen(container: container)
        weak var observed: Session?
        do {
            let session = screen.session
            observed = session
        }
        #expect(observed == nil)
    }
}
