import Foundation
import PlexusFactoryKit
import PlexusFactoryTesting
import Testing

@globalActor private actor Vault {
    static let shared = Vault()
}

@Vault private final class Safe {
    init() {}
}

@MainActor private final class Screen {
    init() {}
}

extension Container {
    @Vault fileprivate var safe: Factory<Safe> { self { Safe() }.cached }
    @MainActor fileprivate var screen: Factory<Screen> { self { Screen() } }
    fileprivate var counted: Factory<Ticket> { self { Ticket() }.cached }
}

@Suite(.container) struct ConcurrencyTests {
    @Test func factoryIsolatedToAGlobalActorResolvesThere() async {
        let first = await Container.shared.safe.resolveOnGlobalActor(Vault.shared)
        let second = await Container.shared.safe.resolveOnGlobalActor(Vault.shared)
        #expect(first === second)
    }

    @Test @MainActor func mainActorFactoryResolvesOnTheMainActor() {
        let screen = Container.shared.screen.resolveOnMainActor()
        #expect(screen !== Container.shared.screen())
    }

    /// Many threads resolving a cached declaration at once all get the one instance it keeps; run under
    /// ThreadSanitizer, it also checks that the manager's state is only touched under the resolution lock.
    @Test func threadsResolvingAtOnceShareTheCachedInstance() {
        let container = Container.shared
        let seen = Locked<Set<ObjectIdentifier>>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let ticket = container.counted()
            seen.update { $0.insert(ObjectIdentifier(ticket)) }
        }
        #expect(seen.exchange([]).count == 1)
    }
}
