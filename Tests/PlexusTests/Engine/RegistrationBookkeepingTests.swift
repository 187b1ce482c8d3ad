import Plexus
import PlexusTesting
import Testing

private final class Service: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class Holder: @unchecked Sendable {
    var note = ""
}

/// What a registry keeps per definition: the keys that name a definition, the containers it is registered in, and
/// overrides that replace one key while the definition stays under others.
@Suite(.silencingPlexusLogs) struct RegistrationBookkeepingTests {
    @Test func aDefinitionUnderTwoTagsStaysUnderTheOtherWhenOneIsOverridden() throws {
        let container = DependencyContainer()
        let original = container.register(.unique, tag: "a") { Service("original") }
        container.register(original, tag: "b")
        container.register(.unique, tag: "a") { Service("override") }
        #expect(try (container.resolve(tag: "a") as Service).name == "override")
        #expect(try (container.resolve(tag: "b") as Service).name == "original")
        container.remove(original, tag: "b")
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "b") as Service }
        #expect(try (container.resolve(tag: "a") as Service).name == "override")
    }

    @Test func removingOneOfTwoTagsKeepsTheDefinitionAndItsSingleton() throws {
        let container = DependencyContainer()
        let definition = container.register(.singleton, tag: "a") { Service("one") }
        container.register(definition, tag: "b")
        let before: Service = try container.resolve(tag: "b")
        container.remove(definition, tag: "a")
        let after: Service = try container.resolve(tag: "b")
        #expect(before === after)
    }

    @Test func aHookAddedLaterReachesEveryContainerTheDefinitionIsRegisteredIn() throws {
        let containers = (0..<3).map { _ in DependencyContainer() }
        let definition = containers[0].register(.unique) { Holder() }
        for container in containers.dropFirst() { container.register(definition) }
        definition.resolvingProperties { _, holder in holder.note = "hooked" }
        for container in containers {
            #expect(try (container.resolve() as Holder).note == "hooked")
        }
    }

    /// A definition keeps a link to each container it was registered in: links of containers gone are replaced or
    /// dropped, and a hook added later reaches the containers still alive, each with its own singleton.
    @Test func aHookAddedLaterReachesTheContainersLeftAfterOthersAreGone() throws {
        let definition = DependencyContainer().register(.singleton) { Holder() }
        for _ in 0..<20 { DependencyContainer().register(definition) }
        let kept = (0..<2).map { _ in DependencyContainer() }
        for container in kept { container.register(definition) }
        for _ in 0..<20 { DependencyContainer().register(definition) }
        definition.resolvingProperties { _, holder in holder.note = "hooked" }
        let first: Holder = try kept[0].resolve()
        let second: Holder = try kept[1].resolve()
        #expect(first.note == "hooked" && second.note == "hooked")
        #expect(first !== second)
        #expect(try kept[0].resolve() as Holder === first)
    }

    @Test func overridingAKeyManyTimesListsItOnceAmongTheTypesKeys() throws {
        let container = DependencyContainer()
        for index in 0..<3 { container.register(.unique, tag: "a") { Service("\(index)") } }
        container.fallsBackToUntaggedDefinitions = false
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: "b") as Service }
        let message = "\(error)"
        let mentions = message.components(separatedBy: "tag \"a\"").count - 1
        #expect(mentions == 1, "\(message)")
    }

    /// The keys of a type are listed only when a lookup first needs them (near misses, auto-wiring): keys removed,
    /// and registered again, before that are listed as if the list had been kept all along.
    @Test func keysChangedBeforeTheFirstMissAreListedAsRegistered() throws {
        let container = DependencyContainer()
        container.fallsBackToUntaggedDefinitions = false
        let definitions = ["a", "b", "c", "d"].map { (name: String) in
            container.register(.unique, tag: name) { Service(name) }
        }
        container.remove(definitions[1], tag: "b")
        container.remove(definitions[3], tag: "d")
        container.register(definitions[3], tag: "d")
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: "z") as Service }
        let message = "\(error)"
        #expect(!message.contains("tag \"b\""), "\(message)")
        let listed = ["a", "c", "d"].compactMap { message.range(of: "tag \"\($0)\"")?.lowerBound }
        #expect(listed.count == 3 && listed == listed.sorted(), "\(message)")
        // Listed from now on as each change happens.
        container.register(definitions[1], tag: "b")
        let again = try #require(throws: ResolutionError.self) { try container.resolve(tag: "y") as Service }
        #expect("\(again)".contains("tag \"b\""), "\(again)")
    }

    /// A table of keys without string tags gets its first one after it has grown, and finds every key after more
    /// growth and removals.
    @Test func aFirstStringTagAmongManyOtherKeysIsFoundAsTheOthersAre() throws {
        let container = DependencyContainer()
        let numbered = (0..<100).map { (index: Int) in container.register(.unique, tag: index) { Service("\(index)") } }
        container.register(.unique) { Service("untagged") }
        for index in 0..<100 { container.register(.unique, tag: "s\(index)") { Service("s\(index)") } }
        for tag in stride(from: 0, to: 100, by: 2) { container.remove(numbered[tag], tag: tag) }
        for tag in 0..<100 {
            #expect(try (container.resolve(tag: "s\(tag)") as Service).name == "s\(tag)")
            if tag % 2 == 1 { #expect(try (container.resolve(tag: tag) as Service).name == "\(tag)") }
        }
        #expect(try (container.resolve() as Service).name == "untagged")
    }

    /// A container's copy holds the slots of its definitions, which do not know the copy: registering one of them
    /// again there, under another tag, still shares its singleton between the two tags.
    @Test func aDefinitionRegisteredAgainInACopyKeepsOneSingletonThere() throws {
        let container = DependencyContainer()
        let definition = container.register(.singleton, tag: "a") { Service("one") }
        let copy = container.copyingInstances(name: "copy")
        copy.register(definition, tag: "b")
        let first: Service = try copy.resolve(tag: "a")
        let second: Service = try copy.resolve(tag: "b")
        #expect(first === second)
    }

    @Test func manyDistinctDefinitionsEachResolveToTheirOwnFactory() throws {
        let container = DependencyContainer()
        for index in 0..<2_000 { container.register(.unique, tag: index) { Service("\(index)") } }
        for index in stride(from: 0, to: 2_000, by: 97) {
            #expect(try (container.resolve(tag: index) as Service).name == "\(index)")
        }
    }

    /// String and integer tags side by side, removals between growths of the container's table: every definition
    /// left answers with its own factory, every removed one is gone.
    @Test func definitionsSurviveTheTableGrowingAroundRemovals() throws {
        let container = DependencyContainer()
        func tag(_ index: Int) -> DependencyContainer.Tag {
            index.isMultiple(of: 2) ? .int(index) : .string("definition number \(index)")
        }
        var definitions: [Int: Definition<Service, ()>] = [:]
        for index in 0..<300 {
            definitions[index] = container.register(.unique, tag: tag(index)) { Service("\(index)") }
            if index.isMultiple(of: 3), index > 0 { container.remove(definitions[index - 1]!, tag: tag(index - 1)) }
        }
        for index in 0..<300 {
            let removed = (index + 1).isMultiple(of: 3) && index + 1 < 300
            if removed {
                #expect(throws: ResolutionError.self) { try container.resolve(tag: tag(index)) as Service }
            } else {
                #expect(try (container.resolve(tag: tag(index)) as Service).name == "\(index)")
            }
        }
    }

    /// Definitions removed between growths of the table that finds each definition's slot: every definition left gets
    /// a hook added afterwards, and a removed one can be registered again.
    @Test func definitionsLeftAfterRemovalsStillGetLaterHooks() throws {
        let container = DependencyContainer()
        var definitions: [Definition<Holder, ()>] = []
        for index in 0..<200 {
            definitions.append(container.register(.unique, tag: index) { Holder() })
            if index.isMultiple(of: 3), index > 0 { container.remove(definitions[index - 1], tag: index - 1) }
        }
        for (index, definition) in definitions.enumerated() {
            definition.resolvingProperties { _, holder in holder.note = "\(index)" }
        }
        for index in 0..<200 {
            if (index + 1).isMultiple(of: 3) && index + 1 < 200 {
                #expect(throws: ResolutionError.self) { try container.resolve(tag: index) as Holder }
            } else {
                #expect(try (container.resolve(tag: index) as Holder).note == "\(index)")
            }
        }
        container.register(definitions[2], tag: 2)
        #expect(try (container.resolve(tag: 2) as Holder).note == "2")
    }
}
