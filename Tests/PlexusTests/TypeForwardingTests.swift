import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Reading: AnyObject, Sendable {}
private protocol Writing: AnyObject, Sendable {}
private protocol Closing: AnyObject, Sendable {}
private protocol Flushing: AnyObject, Sendable {}
private protocol Unrelated: AnyObject, Sendable {}
private final class Store: Reading, Writing, Closing, Flushing, Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}
private final class Cache: Reading, Sendable {}

private enum Failure: Error { case planned }

@Suite(.silencingPlexusLogs) struct TypeForwardingTests {
    let container = DependencyContainer()

    @Test func implementsOneType() throws {
        container.register { Store() }.implements(Reading.self)
        #expect(try container.resolve() as Reading is Store)
        _ = try container.resolve() as Store
    }

    @Test func implementsTwoTypes() throws {
        container.register { Store() }.implements(Reading.self, Writing.self)
        #expect(try container.resolve() as Reading is Store)
        #expect(try container.resolve() as Writing is Store)
    }

    @Test func implementsSeveralTypes() throws {
        container.register { Store() }.implements(Reading.self, Writing.self, Closing.self, Flushing.self)
        #expect(try container.resolve() as Reading is Store)
        #expect(try container.resolve() as Writing is Store)
        #expect(try container.resolve() as Closing is Store)
        #expect(try container.resolve() as Flushing is Store)
    }

    @Test func implementsIsChainable() throws {
        container.register { Store() }
            .implements(Reading.self)
            .implements(Writing.self, tag: "w")
            .resolvingProperties { _, _ in }
            .implements(Closing.self, Flushing.self)
        _ = try container.resolve() as Reading
        _ = try container.resolve(tag: "w") as Writing
        _ = try container.resolve() as Closing
        _ = try container.resolve() as Flushing
    }

    @Test func taggedForwardingAnswersOnlyItsTag() throws {
        container.register { Store() }.implements(Reading.self, tag: "db")
        _ = try container.resolve(tag: "db") as Reading
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Reading }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "other") as Reading }
    }

    @Test func untaggedForwardingAnswersAnyTag() throws {
        container.register(.singleton) { Store() }.implements(Reading.self)
        let untagged: Reading = try container.resolve()
        #expect(try container.resolve(tag: "any") as Reading === untagged)
        #expect(try container.resolve(tag: 3) as Reading === untagged)
    }

    @Test func forwardingOfATaggedDefinition() throws {
        container.register(.singleton, tag: "main") { Store() }.implements(Reading.self)
        let store = try container.resolve(tag: "main") as Store
        #expect(try container.resolve() as Reading === store)
    }

    @Test func forwardingsUnderSeveralTags() throws {
        container.register(.singleton, tag: 1) { Store(id: 1) }.implements(Reading.self, tag: "one")
        container.register(.singleton, tag: 2) { Store(id: 2) }.implements(Reading.self, tag: "two")
        #expect(try (container.resolve(tag: "one") as Reading as? Store)?.id == 1)
        #expect(try (container.resolve(tag: "two") as Reading as? Store)?.id == 2)
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton, .weakSingleton])
    func forwardedTypesShareTheInstanceWithTheOriginal(scope: ComponentScope) throws {
        let counter = Counter()
        container.register(scope) { () -> Store in
            counter.increment()
            return Store()
        }
        .implements(Reading.self, Writing.self)
        let reading: Reading = try container.resolve()
        let store: Store = try container.resolve()
        let writing: Writing = try container.resolve()
        #expect(reading === store)
        #expect(writing === store)
        #expect(counter.count == 1)
    }

    @Test func forwardedSharedInstanceIsSharedWithinOneGraph() throws {
        final class Both: Sendable {
            let reading: Reading
            let store: Store
            init(reading: Reading, store: Store) {
                self.reading = reading
                self.store = store
            }
        }
        container.register(.shared) { Store() }.implements(Reading.self)
        container.register { [container] in Both(reading: try container.resolve(), store: try container.resolve()) }
        let both: Both = try container.resolve()
        #expect(both.reading === both.store)
        #expect(try container.resolve() as Reading !== both.store)
    }

    @Test func forwardedUniqueMakesANewInstanceEachTime() throws {
        container.register(.unique) { Store() }.implements(Reading.self)
        let a: Reading = try container.resolve()
        let b: Reading = try container.resolve()
        #expect(a !== b)
    }

    @Test func forwardedResolvingPropertiesRunAfterTheOriginals() throws {
        let log = Log()
        container.register { Store() }
            .resolvingProperties { _, _ in log.append("original") }
            .implements(Reading.self, resolvingProperties: { _, _ in log.append("forwarded") })
        _ = try container.resolve() as Reading
        #expect(log.entries == ["original", "forwarded"])
    }

    @Test func forwardedResolvingPropertiesRunAfterOriginalsAddedLater() throws {
        let log = Log()
        container.register { Store() }
            .implements(Reading.self, resolvingProperties: { _, _ in log.append("forwarded") })
            .resolvingProperties { _, _ in log.append("original 1") }
            .resolvingProperties { _, _ in log.append("original 2") }
        _ = try container.resolve() as Reading
        #expect(log.entries == ["original 1", "original 2", "forwarded"])
    }

    @Test func forwardedResolvingPropertiesRunOnlyWhenResolvedThroughThatType() throws {
        let log = Log()
        container.register(.unique) { Store() }
            .resolvingProperties { _, _ in log.append("original") }
            .implements(Reading.self, resolvingProperties: { _, _ in log.append("reading") })
            .implements(Writing.self, resolvingProperties: { _, _ in log.append("writing") })
        _ = try container.resolve() as Store
        #expect(log.entries == ["original"])
        _ = try container.resolve() as Writing
        #expect(log.entries == ["original", "original", "writing"])
    }

    @Test func forwardedResolvingPropertiesGetTheInstanceAsTheForwardedType() throws {
        let seen = Log()
        container.register(.singleton) { Store(id: 42) }
            .implements(
                Reading.self, tag: "r",
                resolvingProperties: { container, reading in
                    seen.append("\((reading as? Store)?.id ?? -1)")
                    _ = try container.resolve() as Store
                })
        let reading = try container.resolve(tag: "r") as Reading
        #expect(seen.entries == ["42"])
        #expect(try container.resolve() as Store === reading)
    }

    @Test func forwardedResolvingPropertiesRunOncePerCreatedInstance() throws {
        let counter = Counter()
        container.register(.singleton) { Store() }
            .implements(Reading.self, resolvingProperties: { _, _ in counter.increment() })
        _ = try container.resolve() as Reading
        _ = try container.resolve() as Reading
        #expect(counter.count == 1)
    }

    @Test func forwardedResolvingPropertiesErrorPropagatesUnchanged() throws {
        container.register { Store() }.implements(Reading.self, resolvingProperties: { _, _ in throw Failure.planned })
        #expect(throws: Failure.planned) { _ = try container.resolve() as Reading }
        _ = try container.resolve() as Store
    }

    @Test func invalidForwardingThrowsInvalidType() throws {
        container.register { Cache() }.implements(Unrelated.self)
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Unrelated }
        guard case .invalidType(let resolved, let key)? = error else {
            Issue.record("expected invalidType, got \(String(describing: error))")
            return
        }
        #expect(resolved.map(ObjectIdentifier.init) == ObjectIdentifier(Cache.self))
        #expect(key == DefinitionKey(type: Unrelated.self, typeOfArguments: Void.self))
        let description = "\(error!)"
        #expect(description.contains("Cache"))
        #expect(description.contains("Unrelated"))
    }

    @Test func invalidForwardingWithTagAndArgumentsThrowsInvalidTypeForTheRequestedKey() throws {
        container.register { (id: Int) in Store(id: id) }.implements(Unrelated.self, tag: "u")
        let error = #expect(throws: ResolutionError.self) {
            _ = try container.resolve(tag: "u", arguments: 1) as Unrelated
        }
        guard case .invalidType(_, let key)? = error else {
            Issue.record("expected invalidType, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Unrelated.self, typeOfArguments: Int.self, tag: "u"))
    }

    @Test func invalidForwardingLeavesTheContainerUsable() throws {
        container.register(.singleton) { Store() }.implements(Unrelated.self, Reading.self)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Unrelated }
        let store: Store = try container.resolve()
        #expect(try container.resolve() as Reading === store)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Unrelated }
        #expect(try container.resolve() as Store === store)
    }

    @Test func forwardingWithArguments() throws {
        container.register { (id: Int) in Store(id: id) }.implements(Reading.self)
        #expect(try (container.resolve(arguments: 7) as Reading as? Store)?.id == 7)
        #expect(throws: ResolutionError.self) { _ = try container.resolve(arguments: "7") as Reading }
    }

    @Test func forwardedTypeResolvesAsOptional() throws {
        container.register(.singleton) { Store() }.implements(Reading.self)
        let optional: Reading? = try container.resolve()
        #expect(optional === (try container.resolve() as Store))
    }

    @Test func forwardedTypeResolvesWeaklyTyped() throws {
        container.register { Store() }.implements(Reading.self)
        #expect(try container.resolve(Reading.self) is Store)
    }

    @Test func implementsAfterRegistrationReachesEveryContainer() throws {
        let other = DependencyContainer()
        let definition = container.register(.singleton) { Store() }
        other.register(definition)
        definition.implements(Reading.self)
        #expect(try container.resolve() as Reading === (try container.resolve() as Store))
        #expect(try other.resolve() as Reading === (try other.resolve() as Store))
        #expect(try container.resolve() as Reading !== (try other.resolve() as Reading))
    }

    @Test func definitionRegisteredInAnotherContainerBringsItsForwardings() throws {
        let other = DependencyContainer()
        let definition = container.register { Store() }.implements(Reading.self, tag: "r")
        other.register(definition)
        _ = try other.resolve(tag: "r") as Reading
    }

    @Test func laterForwardingOfTheSameTypeAndTagReplacesTheEarlier() throws {
        container.register { Cache() }.implements(Reading.self)
        container.register { Store() }.implements(Reading.self)
        #expect(try container.resolve() as Reading is Store)
    }

    @Test func overridingTheOriginalDropsItsForwardings() throws {
        container.register { Store() }.implements(Reading.self)
        container.register { Store() }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Reading }
    }

    @Test func forwardingSurvivesRemovalOfOneOfTwoTagsOfTheOriginal() throws {
        let definition = container.register(.singleton, tag: "a") { Store() }.implements(Reading.self)
        container.register(definition, tag: "b")
        container.remove(definition, tag: "a")
        #expect(try container.resolve() as Reading === (try container.resolve(tag: "b") as Store))
    }
}
