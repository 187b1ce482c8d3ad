import Plexus
import PlexusTesting
import Testing

// A type's first instance is stored to learn what it needs; from the second on, a `.unique` instance whose only need
// is auto-injection is filled on the fast path. Each test here resolves once to learn, then checks the next resolves.

/// Whether two metatypes are the same type (`#expect` cannot compare metatypes with `==` directly).
private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

private final class Service {
    let name: String
    init(_ name: String = "service") { self.name = name }
}

private protocol Peer: AnyObject {}
private final class ConcretePeer: Peer {}
private struct Settings: Equatable { let level: Int }
private struct Absent {}
private final class NeedsAbsent {}
private enum Failure: Error { case broken }

private final class Host {
    @Injected var service: Service?
    @InjectedWeak var peer: Peer?
    @Injected var settings: Settings?
}

private final class OptionalHost {
    @Injected(required: false) var absent: Absent?
}

private final class RequiredHost {
    @Injected var absent: Absent?
}

private final class DeepHost {
    @Injected var needsAbsent: NeedsAbsent?
}

private final class TaggedHost {
    @Injected var inherited: Service?
    @Injected(tag: "fixed") var fixed: Service?
    @Injected(tag: nil) var untagged: Service?
}

private final class InjectionCounter: @unchecked Sendable {
    var count = 0
}

private final class Notifying {
    @Injected var service: Service?
    let counter: InjectionCounter
    init(counter: InjectionCounter) {
        self.counter = counter
        _service = Injected { [counter] _ in counter.count += 1 }
    }
}

/// Reaches a box from its own `didInject`.
private final class BoxReference: @unchecked Sendable {
    weak var box: Injected<Service>?
}

private final class Clearing {
    let service: Injected<Service>
    init() {
        let reference = BoxReference()
        service = Injected { _ in reference.box?.value = nil }
        reference.box = service
    }
}

private final class Seeded {
    @Injected var service: Service? = Service("initial")
}

private final class Outer {
    let host: Host
    let hostFilledInsideFactory: Bool
    init(host: Host) {
        self.host = host
        hostFilledInsideFactory = host.service != nil
    }
}

/// A `Resolvable` injected into `ResolvableHost`: counts its callbacks.
private final class Completed: Resolvable {
    var resolved = 0
    var finished = 0
    func resolveDependencies(_ container: DependencyContainer) { resolved += 1 }
    func didResolveDependencies() { finished += 1 }
}

private final class ResolvableHost {
    @Injected var completed: Completed?
}

/// A cycle closed by injection: a unique `Front` holds the `Back` singleton, which holds a `Front` of its own, made
/// while the first one's properties are filled.
private final class Front {
    @Injected var back: Back?
}

private final class Back {
    @Injected var front: Front?
}

private protocol Screen: AnyObject { var service: Service? { get } }
private final class ScreenImpl: Screen {
    @Injected var service: Service?
}

private class BaseHost {
    @Injected var service: Service?
}
private final class DerivedHost: BaseHost {
    @Injected var settings: Settings?
}

/// Records the context a property's factory runs in.
private final class ContextProbe: @unchecked Sendable {
    var contexts: [DependencyContainer.Context] = []
}

private final class ProbedHost {
    @Injected var service: Service?
}

private final class Tracked {
    static let counter = InjectionCounter()
    init() { Self.counter.count += 1 }
    deinit { Self.counter.count -= 1 }
}

private final class TrackedHost {
    @Injected var tracked: Tracked?
}

/// The scopes whose instances are filled on the fast path.
private let hostScopes: [ComponentScope] = [.unique, .shared]

@Suite(.silencingPlexusLogs) struct AutoInjectionAfterFirstResolveTests {
    let container = DependencyContainer()

    /// Resolves `T` once, so its type is learned, and returns the next resolve.
    private func resolvedAgain<T>(_: T.Type = T.self, tag: String? = nil) throws -> T {
        _ = try container.resolve(tag: tag) as T
        return try container.resolve(tag: tag) as T
    }

    @Test(arguments: hostScopes) func everyKindOfPropertyIsFilledAgain(scope: ComponentScope) throws {
        container.register { Service() }
        container.register(.singleton) { ConcretePeer() as Peer }
        container.register { Settings(level: 3) }
        container.register(scope) { Host() }

        let host = try resolvedAgain(Host.self)

        #expect(host.service?.name == "service")
        #expect(host.peer === (try container.resolve() as Peer))
        #expect(host.settings == Settings(level: 3))
    }

    @Test(arguments: hostScopes) func anOptionalPropertyStaysNilAgain(scope: ComponentScope) throws {
        container.register(scope) { OptionalHost() }

        #expect(try resolvedAgain(OptionalHost.self).absent == nil)
    }

    @Test(arguments: hostScopes) func aRequiredPropertyFailsAgainAndTheContainerStaysUsable(scope: ComponentScope)
        throws
    {
        container.register(scope) { RequiredHost() }
        #expect(throws: ResolutionError.self) { try container.resolve() as RequiredHost }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as RequiredHost }

        guard case .autoInjectionFailed(let label, let type, let underlying) = error else {
            Issue.record("expected autoInjectionFailed, got \(String(describing: error))")
            return
        }
        #expect(label == "absent")
        #expect(sameType(type, Absent.self))
        #expect(error?.description.contains("`absent`") == true)
        guard case .definitionNotFound(let key) = underlying as? ResolutionError else {
            Issue.record("expected definitionNotFound, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(key.type, Absent.self))
        container.register { Absent() }
        #expect((try container.resolve() as RequiredHost).absent != nil)
    }

    @Test(arguments: hostScopes) func aFailureDeepInAPropertySaysWhatRequiredIt(scope: ComponentScope) throws {
        container.register { [container] () throws -> NeedsAbsent in
            _ = try container.resolve() as Absent
            return NeedsAbsent()
        }
        container.register(scope) { DeepHost() }
        #expect(throws: ResolutionError.self) { try container.resolve() as DeepHost }

        let error = try #require(throws: ResolutionError.self) { try container.resolve() as DeepHost }

        #expect(
            "\(error)".contains("No definition registered for Absent, required by NeedsAbsent, required by DeepHost"))
    }

    @Test(arguments: hostScopes) func aFactoryErrorOfAPropertyIsWrappedAgain(scope: ComponentScope) throws {
        container.register { () throws -> Service in throw Failure.broken }
        container.register(scope) { ProbedHost() }
        #expect(throws: ResolutionError.self) { try container.resolve() as ProbedHost }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as ProbedHost }

        guard case .autoInjectionFailed(let label, _, let underlying) = error else {
            Issue.record("expected autoInjectionFailed, got \(String(describing: error))")
            return
        }
        #expect(label == "service")
        #expect(underlying is Failure)
    }

    @Test(arguments: hostScopes) func tagsPassDownAgain(scope: ComponentScope) throws {
        container.register(tag: "graph") { Service("graph") }
        container.register(tag: "fixed") { Service("fixed") }
        container.register { Service("untagged") }
        container.register(scope, tag: "graph") { TaggedHost() }

        let host = try resolvedAgain(TaggedHost.self, tag: "graph")

        #expect(host.inherited?.name == "graph")
        #expect(host.fixed?.name == "fixed")
        #expect(host.untagged?.name == "untagged")
    }

    @Test(arguments: hostScopes) func didInjectIsCalledOnEveryInjection(scope: ComponentScope) throws {
        let counter = InjectionCounter()
        container.register { Service() }
        container.register(scope) { Notifying(counter: counter) }

        _ = try resolvedAgain(Notifying.self)

        #expect(counter.count == 2)
    }

    @Test(arguments: hostScopes) func didInjectMayClearTheProperty(scope: ComponentScope) throws {
        container.register { Service() }
        container.register(scope) { Clearing() }

        #expect(try resolvedAgain(Clearing.self).service.value == nil)
    }

    @Test(arguments: hostScopes) func injectionReplacesTheInitialValueAgain(scope: ComponentScope) throws {
        container.register { Service("injected") }
        container.register(scope) { Seeded() }

        #expect(try resolvedAgain(Seeded.self).service?.name == "injected")
    }

    // Serialized: both cases count instances of the one `Tracked` class.
    @Test(.serialized, arguments: hostScopes) func eachInjectedValueIsReleasedWithItsHost(scope: ComponentScope) throws
    {
        container.register { Tracked() }
        container.register(scope) { TrackedHost() }

        _ = try resolvedAgain(TrackedHost.self)

        #expect(Tracked.counter.count == 0)
    }

    @Test(arguments: hostScopes) func anInstanceMadeInsideAFactoryIsInjectedOnceTheOutermostFactoryReturns(
        scope: ComponentScope
    ) throws {
        container.register { Service() }
        container.register(.singleton) { ConcretePeer() as Peer }
        container.register { Settings(level: 1) }
        container.register(scope) { Host() }
        container.register { [container] in Outer(host: try container.resolve()) }
        _ = try container.resolve() as Host

        let outer: Outer = try container.resolve()

        #expect(!outer.hostFilledInsideFactory)
        #expect(outer.host.service != nil)
    }

    @Test(arguments: hostScopes) func aResolvablePropertyIsCompletedAgain(scope: ComponentScope) throws {
        container.register { Completed() }
        container.register(scope) { ResolvableHost() }

        let host = try resolvedAgain(ResolvableHost.self)

        #expect(host.completed?.resolved == 1)
        #expect(host.completed?.finished == 1)
    }

    @Test func aUniqueInstanceInACycleClosedByInjectionIsMadeAgainInside() throws {
        container.register(.unique) { Front() }
        container.register(.singleton) { Back() }

        let front: Front = try container.resolve()

        let back = try #require(front.back)
        let inner = try #require(back.front)
        #expect(inner !== front)
        #expect(inner.back === back)
        #expect(try resolvedAgain(Front.self).back === back)
        back.front = nil  // the cycle, broken for the test's end
    }

    @Test func aSharedInstanceClosesACycleByInjection() throws {
        container.register(.shared) { Front() }
        container.register(.singleton) { Back() }

        let front: Front = try container.resolve()

        #expect(front.back?.front === front)
        front.back?.front = nil  // the cycle, broken for the test's end
    }

    @Test(arguments: hostScopes) func anInstanceRegisteredAsAProtocolIsInjectedAgain(scope: ComponentScope) throws {
        container.register { Service() }
        container.register(scope) { ScreenImpl() as Screen }

        #expect(try resolvedAgain((any Screen).self).service != nil)
    }

    @Test(arguments: hostScopes) func superclassPropertiesAreInjectedAgain(scope: ComponentScope) throws {
        container.register { Service() }
        container.register { Settings(level: 2) }
        container.register(scope) { DerivedHost() as BaseHost }

        let host = try #require(try resolvedAgain(BaseHost.self) as? DerivedHost)

        #expect(host.service != nil)
        #expect(host.settings == Settings(level: 2))
    }

    @Test(arguments: hostScopes) func aPropertysFactorySeesItsContextAgain(scope: ComponentScope) throws {
        let probe = ContextProbe()
        container.register { [container] in
            probe.contexts.append(container.context)
            return Service()
        }
        container.register(scope) { ProbedHost() }

        _ = try resolvedAgain(ProbedHost.self)

        #expect(probe.contexts.count == 2)
        for context in probe.contexts {
            #expect(sameType(context.resolvingType, Service.self))
            #expect(sameType(context.injectedInType, ProbedHost.self))
            #expect(context.injectedInProperty == "service")
        }
    }

    @Test(arguments: hostScopes) func aHostFromACollaboratorIsInjectedByItsOwnerAgain(scope: ComponentScope) throws {
        let owner = DependencyContainer()
        owner.register { Service("owner's") }
        owner.register(scope) { ProbedHost() }
        container.collaborate(with: owner)

        #expect(try resolvedAgain(ProbedHost.self).service?.name == "owner's")
    }
}
