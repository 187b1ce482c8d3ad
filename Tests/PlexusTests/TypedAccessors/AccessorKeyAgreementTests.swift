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
}
