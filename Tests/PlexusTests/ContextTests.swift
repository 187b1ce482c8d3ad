import Foundation
import Plexus
import PlexusTesting
import Testing

/// Whether two metatypes are the same type (`#expect` cannot compare metatypes with `==` directly).
private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

private typealias Context = DependencyContainer.Context

/// Remembers the context its factory saw.
private final class Probe {
    let context: Context?

    init(_ context: Context?) {
        self.context = context
    }
}

private protocol Probing: AnyObject {}

private final class ForwardedProbe: Probing {
    let context: Context?

    init(_ context: Context?) {
        self.context = context
    }
}

private final class Host {
    let probe: Probe
    let contextBefore: Context?
    let contextAfter: Context?

    init(probe: Probe, contextBefore: Context?, contextAfter: Context?) {
        self.probe = probe
        self.contextBefore = contextBefore
        self.contextAfter = contextAfter
    }
}

private final class HookTarget {
    var hookContext: Context?
    var probe: Probe?
}

private final class InjectionHost {
    @Injected var probe: Probe?
}

/// A protocol that is not class-bound, as Dip's users register against; the implementation is a class whose injected
/// properties are plain values (Dip's pre-wrapper style), each seeing its own context.
private protocol Greeting {}

private final class Dependency {
    let context: Context?
    init(_ context: Context?) { self.context = context }
}

private final class GreetingWithProperties: Greeting {
    let inherited = Injected<Dependency>()
    let inheritedWeak = InjectedWeak<Dependency>()
    let tagged = Injected<Dependency>(tag: "named")
    let taggedWeak = InjectedWeak<Dependency>(tag: "named")
    let untagged = Injected<Dependency>(tag: nil)
}

@Suite(.silencingPlexusLogs) struct ContextTests {
    /// Dip's own context checks, with the registration shape Dip users write most: a class behind a non-class
    /// protocol, with injected properties, resolved with a tag.
    @Test func injectedPropertiesOfAClassRegisteredAsANonClassProtocolSeeTheirContext() throws {
        let hookContexts = Collected<Context?>()
        container.register(.unique) { [unowned container] in Dependency(container.context) }
        container.register(.unique, tag: "named") { [unowned container] in Dependency(container.context) }
        container.register(.unique) { GreetingWithProperties() as Greeting }
            .resolvingProperties { container, _ in hookContexts.append(container.context) }

        let greeting = try #require(try container.resolve(tag: "outer") as Greeting as? GreetingWithProperties)

        let inherited = try #require(greeting.inherited.value?.context)
        #expect(inherited.injectedInProperty == "inherited")
        #expect(sameType(inherited.injectedInType, GreetingWithProperties.self), "the instance's own class")
        #expect(inherited.tag == "outer", "an untagged property inherits the resolve's tag")
        let tagged = try #require(greeting.tagged.value?.context)
        #expect(tagged.injectedInProperty == "tagged" && tagged.tag == "named")
        let untagged = try #require(greeting.untagged.value?.context)
        #expect(untagged.injectedInProperty == "untagged" && untagged.tag == nil)
        #expect(greeting.inheritedWeak.value == nil, "nothing else holds the weakly injected unique instance")
        let hook = try #require(hookContexts.values.first ?? nil)
        #expect(sameType(hook.resolvingType, Greeting.self) && hook.tag == "outer" && hook.injectedInType == nil)
    }

    let container = DependencyContainer()

    private func registerProbe(_ scope: ComponentScope = .unique) {
        container.register(scope) { [unowned container] in Probe(container.context) }
    }

    @Test func contextIsNilOutsideAResolution() throws {
        registerProbe()
        #expect(container.context == nil)

        _ = try container.resolve() as Probe

        #expect(container.context == nil)
    }

    @Test func contextIsNilAfterAFailedResolution() throws {
        container.register { () throws -> Probe in throw CancellationError() }

        #expect(throws: CancellationError.self) { try container.resolve() as Probe }

        #expect(container.context == nil)
    }

    @Test func factorySeesTheRequestedTypeAndKey() throws {
        registerProbe()

        let probe: Probe = try container.resolve()

        let context = try #require(probe.context)
        #expect(sameType(context.resolvingType, Probe.self))
        #expect(context.tag == nil)
        #expect(context.key == DefinitionKey(type: Probe.self, typeOfArguments: Void.self, tag: nil))
        #expect(context.injectedInType == nil)
        #expect(context.injectedInProperty == nil)
    }

    @Test(arguments: [DependencyContainer.Tag.string("prod"), .int(7)])
    func factorySeesTheRequestedTag(tag: DependencyContainer.Tag) throws {
        registerProbe()

        let probe: Probe = try container.resolve(tag: tag)

        let context = try #require(probe.context)
        #expect(context.tag == tag)
        #expect(context.key == DefinitionKey(type: Probe.self, typeOfArguments: Void.self, tag: tag))
    }

    @Test func factoryWithArgumentsSeesTheArgumentTypesInTheKey() throws {
        container.register { [unowned container] (_: Int, _: String) in Probe(container.context) }

        let probe: Probe = try container.resolve(arguments: 1, "one")

        let context = try #require(probe.context)
        #expect(context.key == DefinitionKey(type: Probe.self, typeOfArguments: (Int, String).self, tag: nil))
    }

    @Test func forwardedResolveSeesTheForwardedType() throws {
        container.register { [unowned container] in ForwardedProbe(container.context) }
            .implements(Probing.self)

        let probing: Probing = try container.resolve()

        let context = try #require((probing as? ForwardedProbe)?.context)
        #expect(sameType(context.resolvingType, Probing.self))
    }

    @Test func nestedFactorySeesTheTypeWhoseFactoryAsked() throws {
        registerProbe()
        container.register { [unowned container] () throws -> Host in
            let before = container.context
            let probe: Probe = try container.resolve()
            return Host(probe: probe, contextBefore: before, contextAfter: container.context)
        }

        let host: Host = try container.resolve()

        let inner = try #require(host.probe.context)
        #expect(sameType(inner.resolvingType, Probe.self))
        #expect(sameType(inner.injectedInType, Host.self))
        #expect(inner.injectedInProperty == nil)
        #expect(sameType(host.contextBefore?.resolvingType, Host.self))
        #expect(host.contextBefore?.injectedInType == nil)
        // Back in the outer factory, the context is the outer one again.
        #expect(sameType(host.contextAfter?.resolvingType, Host.self))
    }

    @Test func contextIsTheSameWhicheverContainerReadsIt() throws {
        let other = DependencyContainer()
        container.register { [other] in Probe(other.context) }

        let probe: Probe = try container.resolve(tag: "seen")

        #expect(sameType(probe.context?.resolvingType, Probe.self))
        #expect(probe.context?.tag == "seen")
    }

    @Test func collaboratorFactorySeesTheRequestingType() throws {
        let root = DependencyContainer()
        root.register(.unique) { [unowned root] in Probe(root.context) }
        container.collaborate(with: root)
        container.register { [unowned container] () throws -> Host in
            Host(probe: try container.resolve(), contextBefore: nil, contextAfter: nil)
        }

        let host: Host = try container.resolve()

        #expect(sameType(host.probe.context?.resolvingType, Probe.self))
        #expect(sameType(host.probe.context?.injectedInType, Host.self))
    }

    @Test func hookSeesTheContextOfItsInstance() throws {
        registerProbe()
        container.register { HookTarget() }
            .resolvingProperties { c, target in
                target.hookContext = c.context
                target.probe = try c.resolve()
            }

        let target: HookTarget = try container.resolve(tag: "hooked")

        let hookContext = try #require(target.hookContext)
        #expect(sameType(hookContext.resolvingType, HookTarget.self))
        #expect(hookContext.tag == "hooked")
        let probeContext = try #require(target.probe?.context)
        #expect(sameType(probeContext.resolvingType, Probe.self))
        #expect(sameType(probeContext.injectedInType, HookTarget.self))
    }

    @Test func autoInjectedPropertyIsNamedInTheContext() throws {
        registerProbe()
        container.register { InjectionHost() }

        let host: InjectionHost = try container.resolve()

        let context = try #require(host.probe?.context)
        #expect(sameType(context.resolvingType, Probe.self))
        #expect(sameType(context.injectedInType, InjectionHost.self))
        #expect(context.injectedInProperty == "probe")
    }

    @Test func contextIsPerThread() throws {
        let threadCount = 6
        let mismatches = Collected<String>()
        let seen = Collected<Int>()
        let entered = Counter()
        // The first factory call of each thread waits until every thread is inside one: all contexts are set at once.
        let allInFactories = Rendezvous(threadCount)
        container.register(.unique) { [unowned container] () -> Probe in
            let before = container.context
            if entered.increment() <= threadCount { allInFactories.arrive() }
            let after = container.context
            if before?.tag != after?.tag {
                mismatches.append("\(String(describing: before)) / \(String(describing: after))")
            }
            return Probe(after)
        }
        let group = DispatchGroup()
        for index in 0..<threadCount {
            group.enter()
            Thread(
                block: quiet { [container] in
                    defer { group.leave() }
                    for _ in 0..<20 {
                        do {
                            let probe: Probe = try container.resolve(tag: index)
                            if probe.context?.tag != .int(index) {
                                mismatches.append("thread \(index) saw \(String(describing: probe.context))")
                            }
                            if container.context != nil { mismatches.append("thread \(index) has a context outside") }
                            seen.append(index)
                        } catch {
                            mismatches.append("thread \(index) threw \(error)")
                        }
                    }
                }
            )
            .start()
        }

        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(mismatches.values.isEmpty)
        #expect(seen.values.count == threadCount * 20)
    }
}
