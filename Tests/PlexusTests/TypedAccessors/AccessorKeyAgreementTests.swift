import Plexus
import PlexusTesting
import Testing

private protocol Mapper: AnyObject, Sendable {
    var name: String { get }
}
private final class DefaultMapper: Mapper {
    let name = "default"
}
private final class CustomMapper: Mapper {
    let name = "custom"
}
private final class ForwardedMapper: Mapper {
    let name = "forwarded"
}

extension DependencyContainer {
    fileprivate var agreedMapper: Factory<Mapper> { self { DefaultMapper() } }
    fileprivate var agreedSingleton: Factory<Mapper> { self { DefaultMapper() }.singleton }
}

/// A typed accessor and `resolve(tag:)` with the accessor's key give one answer: one registry, one key.
@Suite(.silencingPlexusLogs) struct AccessorKeyAgreementTests {
    let container = DependencyContainer(name: "App")
    let mapperTag = "DependencyContainer.agreedMapper"
    let singletonTag = "DependencyContainer.agreedSingleton"

    @Test(arguments: [false, true])
    func aDefinitionRegisteredUnderTheAccessorsKeyAnswersTheAccessor(usedBefore: Bool) throws {
        if usedBefore { #expect(container.agreedMapper().name == "default") }
        container.register(tag: mapperTag) { CustomMapper() as Mapper }
        #expect(container.agreedMapper().name == "custom")
        #expect(try (container.resolve(tag: mapperTag) as Mapper).name == "custom")
    }

    @Test(arguments: [false, true])
    func aForwardingRegistrationUnderTheAccessorsKeyAnswersTheAccessor(usedBefore: Bool) throws {
        if usedBefore { #expect(container.agreedMapper().name == "default") }
        container.register { CustomMapper() }.implements(Mapper.self, tag: mapperTag)
        #expect(container.agreedMapper().name == "custom")
        #expect(try (container.resolve(tag: mapperTag) as Mapper).name == "custom")
    }

    @Test(arguments: [false, true])
    func aSingletonForwardedUnderTheAccessorsKeyIsTheInstanceOfBoth(usedBefore: Bool) throws {
        if usedBefore { #expect(container.agreedSingleton().name == "default") }
        container.register(.singleton) { CustomMapper() }.implements(Mapper.self, tag: singletonTag)
        let accessed = container.agreedSingleton()
        #expect(accessed.name == "custom")
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    @Test func resolveWithTheAccessorsTagGetsTheDeclaredDefaultOnceUsed() throws {
        #expect(throws: ResolutionError.self) { try container.resolve(tag: singletonTag) as Mapper }
        let accessed = container.agreedSingleton()
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    /// An untagged definition answers any tag without one of its own, until the accessor's default is registered
    /// under that tag: then the default answers, as it does for the accessor.
    @Test func theDeclaredDefaultAnswersBeforeAnUntaggedDefinition() throws {
        container.register(.singleton) { CustomMapper() as Mapper }
        #expect(try (container.resolve(tag: singletonTag) as Mapper).name == "custom")
        let accessed = container.agreedSingleton()
        #expect(accessed.name == "default")
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    /// The same through a collaborator, whose untagged definition answered the tag before (a remembered route).
    @Test func theDeclaredDefaultAnswersBeforeACollaboratorsUntaggedDefinition() throws {
        let module = DependencyContainer(name: "Module")
        module.register(.singleton) { CustomMapper() as Mapper }
        container.collaborate(with: module)
        #expect(try (container.resolve(tag: singletonTag) as Mapper).name == "custom")
        let accessed = container.agreedSingleton()
        #expect(accessed.name == "default")
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    /// A collaborator's definition under exactly the key overrides the default for both.
    @Test func aCollaboratorsDefinitionUnderTheKeyAnswersBoth() throws {
        _ = container.agreedSingleton()
        let module = DependencyContainer(name: "Module")
        module.register(.singleton, tag: singletonTag) { CustomMapper() as Mapper }
        container.collaborate(with: module)
        let accessed = container.agreedSingleton()
        #expect(accessed.name == "custom")
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    /// `as T?` finds what `as T` finds: the declared default, once the accessor has registered it.
    @Test(arguments: [false, true])
    func anOptionalResolveWithTheAccessorsTagGetsTheDeclaredDefault(withUntagged: Bool) throws {
        if withUntagged { container.register(.singleton) { CustomMapper() as Mapper } }
        let accessed = container.agreedSingleton()
        #expect(accessed.name == "default")
        #expect(try container.resolve(tag: singletonTag) as Mapper? === accessed)
        #expect(try container.resolve(tag: singletonTag) as Mapper === accessed)
    }

    /// An `as T?` answered by the untagged definition before the accessor's first use is not remembered past it.
    @Test func anOptionalResolveBeforeTheFirstUseIsNotRememberedAfterIt() throws {
        container.register(.singleton) { CustomMapper() as Mapper }
        #expect(try (container.resolve(tag: singletonTag) as Mapper?)?.name == "custom")
        let accessed = container.agreedSingleton()
        #expect(try container.resolve(tag: singletonTag) as Mapper? === accessed)
    }

    /// A forwarding registered under the accessor's key, beside an untagged definition of the type: the forwarding
    /// is under exactly the key, so it answers the accessor and, once the accessor has been used here,
    /// `resolve(tag:)`, optional or not. Before that first use the key is an ordinary tag, whose lookup tries the
    /// untagged definition before forwardings.
    @Test(arguments: [false, true])
    func aForwardingUnderTheKeyAnswersBothOnceTheAccessorIsUsed(usedBefore: Bool) throws {
        if usedBefore { #expect(container.agreedMapper().name == "default") }
        container.register(.singleton) { CustomMapper() as Mapper }
        container.register { ForwardedMapper() }.implements(Mapper.self, tag: mapperTag)
        let expected = usedBefore ? "forwarded" : "custom"
        #expect(try (container.resolve(tag: mapperTag) as Mapper).name == expected)
        #expect(try (container.resolve(tag: mapperTag) as Mapper?)?.name == expected)
        #expect(container.agreedMapper().name == "forwarded")
        #expect(try (container.resolve(tag: mapperTag) as Mapper).name == "forwarded")
        #expect(try (container.resolve(tag: mapperTag) as Mapper?)?.name == "forwarded")
    }
}
