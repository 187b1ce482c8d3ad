import Foundation
import Plexus
import PlexusTesting
import Testing

// The fast path reads a container's definitions without its lock while nothing changes the container (the reader
// bias). A change turns that off for a while; a resolve that only reads must not, or every definition that takes the
// general path would send the reads around it to the lock.

private final class Client: Sendable {}

/// Registered with a decorator: resolved by the general path.
private final class Decorated: Sendable {}

/// A class with an `@Injected` property, resolved under a string tag.
private final class Holder {
    @Injected var client: Client?
}

/// Made by a typed accessor.
private final class Banner: Sendable {}

extension DependencyContainer {
    fileprivate var readerBiasBanner: Factory<Banner> { self { Banner() }.singleton }
}

/// What `Store` is also resolved as, by forwarding: resolved by the general path.
private protocol Reading: Sendable {}
private final class Store: Reading {}

@Suite struct ReaderBiasTests {
    /// A container with a singleton and, with `decorated`, a decorated unique `Decorated`, each resolved once (the
    /// first resolve of a type learns what its instances need, a change), then read often enough under the lock for
    /// reads to skip it again.
    fileprivate static func warmedUp(decorated: Bool = false) throws -> DependencyContainer {
        let container = DependencyContainer()
        container.register(.singleton) { Client() }
        if decorated {
            container.register(.unique) { Decorated() }
            container.decorate(Decorated.self) { $0 }
            _ = try container.resolve() as Decorated
        }
        for _ in 0..<64 { _ = try container.resolve() as Client }
        return container
    }

    @Test func aRegistrationStopsReadsWithoutTheLockUntilReadsUnderItResumeThem() throws {
        let container = try Self.warmedUp()
        #expect(EngineTestHooks.readsWithoutLock(container))
        container.register(.unique) { Decorated() }
        container.decorate(Decorated.self) { $0 }
        #expect(!EngineTestHooks.readsWithoutLock(container))
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func resolvingADefinitionOfTheGeneralPathKeepsReadsWithoutTheLock() throws {
        let container = try Self.warmedUp(decorated: true)
        _ = try container.resolve() as Decorated
        #expect(EngineTestHooks.readsWithoutLock(container))
        _ = try container.resolve() as Client
        _ = try container.resolve() as Decorated
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aSingletonOfTheGeneralPathMadeAndReadAgainKeepsReadsWithoutTheLockOnceMade() throws {
        let container = DependencyContainer()
        container.register(.singleton) { Client() }
        container.register(.singleton) { Decorated() }
        container.decorate(Decorated.self) { $0 }
        let first = try container.resolve() as Decorated
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try container.resolve() as Decorated === first)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aDefinitionReachedThroughACollaboratorKeepsBothContainersReadsWithoutTheLock() throws {
        let module = try Self.warmedUp(decorated: true)
        let app = DependencyContainer()
        app.collaborate(with: module)
        _ = try app.resolve() as Decorated
        _ = try app.resolve() as Client
        for _ in 0..<64 {
            _ = try module.resolve() as Client
            _ = try app.resolve() as Client
        }
        #expect(EngineTestHooks.readsWithoutLock(module))
        #expect(EngineTestHooks.readsWithoutLock(app))
        _ = try app.resolve() as Decorated
        #expect(EngineTestHooks.readsWithoutLock(module))
        #expect(EngineTestHooks.readsWithoutLock(app))
    }

    @Test(.silencingPlexusLogs) func aTaggedRequestAnsweredByTheUntaggedDefinitionKeepsReadsWithoutTheLock() throws {
        let container = try Self.warmedUp()
        container.register(.unique) { Store() }
        let first = try container.resolve(tag: "primary") as Store
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try container.resolve(tag: "primary") as Store !== first)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aTypeReachedByForwardingKeepsReadsWithoutTheLock() throws {
        let container = try Self.warmedUp()
        container.register(.singleton) { Store() }.implements(Reading.self)
        let first = try container.resolve() as Reading
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try container.resolve() as Reading as? Store === first as? Store)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func anInstanceResolvedUnderAStringTagIsInjectedWithoutTurningTheBiasOff() throws {
        let container = try Self.warmedUp()
        container.register(.unique, tag: "screen") { Holder() }
        _ = try container.resolve(tag: "screen") as Holder
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try (container.resolve(tag: "screen") as Holder).client != nil)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aTypedAccessorsKeyResolvedByTagKeepsReadsWithoutTheLock() throws {
        let container = try Self.warmedUp()
        let banner = container.readerBiasBanner()
        let key = try #require(container.readerBiasBanner.key)
        #expect(try container.resolve(tag: key.tag) as Banner === banner)
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try container.resolve(tag: key.tag) as Banner === banner)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }
}

/// Whether the tests that need the process to themselves run (`PLEXUS_ALONE_TESTS`, set by `.ci/run` for a run of
/// their suites alone): while any test validates a container, a typed accessor takes the general path, which may lock.
private let aloneTestsRequested = ProcessInfo.processInfo.environment["PLEXUS_ALONE_TESTS"] != nil

/// Reader-bias checks of typed accessors, which `validate` running in a parallel test would send to the general path.
@Suite(.enabled(if: aloneTestsRequested)) struct AloneReaderBiasTests {
    @Test func aTypedAccessorOfAContainerWithCollaboratorsKeepsReadsWithoutTheLock() throws {
        let module = try ReaderBiasTests.warmedUp()
        let app = try ReaderBiasTests.warmedUp()
        app.collaborate(with: module)
        let banner = app.readerBiasBanner()
        for _ in 0..<64 { _ = try app.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(app))
        #expect(app.readerBiasBanner() === banner)
        #expect(EngineTestHooks.readsWithoutLock(app))
    }

    /// An override in a collaborator, directly or two links away, that answered the accessor once: later calls read
    /// it without turning any container's bias off.
    @Test(arguments: [false, true])
    func aTypedAccessorOverriddenInACollaboratorKeepsReadsWithoutTheLock(throughAnother: Bool) throws {
        let module = try ReaderBiasTests.warmedUp()
        let middle = try ReaderBiasTests.warmedUp()
        let app = try ReaderBiasTests.warmedUp()
        if throughAnother {
            app.collaborate(with: middle)
            middle.collaborate(with: module)
        } else {
            app.collaborate(with: module)
        }
        module.readerBiasBanner.replace { Banner() }
        let banner = app.readerBiasBanner()
        #expect(module.readerBiasBanner() === banner)
        for _ in 0..<64 {
            for container in [app, middle, module] { _ = try container.resolve() as Client }
        }
        for container in [app, middle, module] { #expect(EngineTestHooks.readsWithoutLock(container)) }
        for _ in 0..<3 { #expect(app.readerBiasBanner() === banner) }
        for container in [app, middle, module] { #expect(EngineTestHooks.readsWithoutLock(container)) }
    }
}
