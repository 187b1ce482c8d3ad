import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject {}
private protocol Named: AnyObject {
    var name: String { get set }
}
private protocol Unimplemented {}
private final class ServiceImp: Service, Named {
    var name = ""
    var events: [String] = []
}

/// `register(_:type:tag:)`: Dip's way to register an existing definition under another type.
@Suite(.silencingPlexusLogs) struct RegisterAsTypeTests {
    let container = DependencyContainer()

    @Test func definitionResolvesAsTheOtherTypeSharingItsInstances() throws {
        let definition = container.register(.singleton) { ServiceImp() }
        container.register(definition, type: Service.self)
        container.register(definition, type: Service.self, tag: "tagged")
        let service: ServiceImp = try container.resolve()
        #expect((try container.resolve() as Service) === service)
        #expect((try container.resolve(tag: "tagged") as Service) === service)
    }

    @Test func returnedDefinitionIsForTheNewTypeWithTheOriginalsScope() throws {
        let definition = container.register(.weakSingleton) { ServiceImp() }
        let forwarded: Definition<Service, ()> = container.register(definition, type: Service.self, tag: "t")
        #expect(forwarded.scope == .weakSingleton)
    }

    @Test func hooksOfTheReturnedDefinitionRunAfterTheOriginalsOnlyThroughTheNewType() throws {
        let definition = container.register { ServiceImp() }
            .resolvingProperties { _, service in service.events.append("original") }
        container.register(definition, type: Service.self)
            .resolvingProperties { _, service in (service as? ServiceImp)?.events.append("forwarded") }
        #expect((try container.resolve() as ServiceImp).events == ["original"])
        let service = try container.resolve() as Service
        #expect((service as? ServiceImp)?.events == ["original", "forwarded"])
    }

    @Test func keyPathHooksWorkOnTheReturnedDefinition() throws {
        container.register(tag: "name") { "main" }
        let definition = container.register { ServiceImp() }
        container.register(definition, type: Named.self)
            .resolvingProperty(\Named.name, factory: { try $0.resolve(tag: "name") })
        #expect((try container.resolve() as Named).name == "main")
        #expect((try container.resolve() as ServiceImp).name == "")
    }

    @Test func implementsOnTheReturnedDefinitionForwardsTheOriginal() throws {
        let definition = container.register(.singleton) { ServiceImp() }
        container.register(definition, type: Service.self).implements(Named.self, tag: "named")
        let service: ServiceImp = try container.resolve()
        #expect((try container.resolve(tag: "named") as Named) === service)
    }

    @Test func instanceOfAnotherTypeThrowsInvalidType() throws {
        let definition = container.register { ServiceImp() }
        container.register(definition, type: Unimplemented.self, tag: "wrong")
        let error = try #require(throws: ResolutionError.self) {
            _ = try container.resolve(tag: "wrong") as Unimplemented
        }
        guard case .invalidType(let resolved, let key) = error else {
            Issue.record("expected invalidType, got \(error)")
            return
        }
        #expect(resolved.map(ObjectIdentifier.init) == ObjectIdentifier(ServiceImp.self))
        #expect(key == DefinitionKey(type: Unimplemented.self, typeOfArguments: Void.self, tag: "wrong"))
        _ = try container.resolve() as ServiceImp
    }

    @Test func definitionNotYetRegisteredHereIsRegisteredUntagged() throws {
        let other = DependencyContainer()
        let definition = other.register(.singleton) { ServiceImp() }
        container.register(definition, type: Service.self)
        let here: ServiceImp = try container.resolve()
        #expect((try container.resolve() as Service) === here)
        #expect((try other.resolve() as ServiceImp) !== here, "each container keeps its own singletons")
    }

    /// Dip registers the forwarding in the receiving container only: the definition's own container does not gain
    /// the type.
    @Test func theForwardingIsRegisteredInTheReceivingContainerOnly() throws {
        let other = DependencyContainer()
        let definition = other.register(.singleton) { ServiceImp() }
        container.register(definition, type: Service.self)
        #expect(throws: ResolutionError.self) { try other.resolve() as Service }
        _ = try container.resolve() as Service
    }

    /// Registering the returned definition again (under another tag, or in another container) adds a forwarding
    /// registration of the original: its instances are shared, never made twice.
    @Test func registeringTheReturnedDefinitionAgainSharesTheOriginalsInstances() throws {
        let made = Counter()
        let definition = container.register(.eagerSingleton) { () -> ServiceImp in
            made.increment()
            return ServiceImp()
        }
        let forwarded = container.register(definition, type: Service.self)
        container.register(forwarded, tag: "b")
        try container.bootstrap()
        #expect(made.count == 1)
        let original: ServiceImp = try container.resolve()
        #expect((try container.resolve(tag: "b") as Service) === original)
        #expect((try container.resolve() as Service) === original)
    }

    @Test func removingTheReturnedDefinitionRemovesItsForwarding() throws {
        let definition = container.register(.singleton) { ServiceImp() }
        let forwarded = container.register(definition, type: Service.self, tag: "main")
        container.register(definition, type: Service.self, tag: "other")
        container.remove(forwarded, tag: "main")
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "main") as Service }
        let other = try container.resolve(tag: "other") as Service
        #expect(other === (try container.resolve() as ServiceImp))
    }

    /// Auto-injection is the original definition's: on the returned definition the setting says so instead of
    /// being ignored silently.
    @Test func autoInjectingPropertiesOnTheReturnedDefinitionLogsThatItHasNoEffect() {
        let definition = container.register(.singleton) { ServiceImp() }
        let forwarded = container.register(definition, type: Service.self)
        let messages = Log()
        Plexus.withLogging(level: .errors, logger: messages.logger) {
            forwarded.autoInjectingProperties(false)
        }
        #expect(messages.entries.count == 1)
        #expect(messages.entries.first?.contains("call it on that definition") == true)
    }

    /// `remove` and `reset` empty the container of the definition: registering it as another type registers it
    /// here again first.
    @Test func registeringAsAnotherTypeAfterRemoveOrResetRegistersTheDefinitionAgain() throws {
        let definition = container.register(.singleton) { ServiceImp() }
        container.remove(definition)
        container.register(definition, type: Service.self)
        _ = try container.resolve() as Service
        container.reset()
        container.register(definition, type: Service.self)
        _ = try container.resolve() as Service
    }
}
