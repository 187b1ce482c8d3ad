import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject {}
private final class ServiceImp: Service, Sendable {}
private final class Named: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private enum Environment: String, DependencyTagConvertible {
    case prod
    case staging
}

private enum Slot: Int, DependencyTagConvertible {
    case first = 1
    case second = 2
}

/// A tag type that is not `RawRepresentable` and says what tag it stands for.
private struct Region: DependencyTagConvertible {
    let code: String
    var dependencyTag: DependencyContainer.Tag { .string("region-\(code)") }
}

/// Tags written every way Plexus and Dip allow, with the tag each one stands for.
private func spellings() -> [(DependencyTagConvertible, DependencyContainer.Tag)] {
    [
        ("prod", .string("prod")),
        (7, .int(7)),
        (DependencyContainer.Tag.string("prod"), .string("prod")),
        (DependencyContainer.Tag.int(7), .int(7)),
        (DependencyContainer.Tag.String("prod"), .string("prod")),
        (DependencyContainer.Tag.Int(7), .int(7)),
        (Environment.prod, .string("prod")),
        (Slot.second, .int(2)),
        (Region(code: "eu"), .string("region-eu")),
    ]
}

@Suite(.silencingPlexusLogs) struct TagTests {
    let container = DependencyContainer()

    @Test func stringTag() throws {
        container.register(tag: "prod") { Named("prod") }
        container.register(tag: "staging") { Named("staging") }
        #expect(try (container.resolve(tag: "prod") as Named).name == "prod")
        #expect(try (container.resolve(tag: "staging") as Named).name == "staging")
    }

    @Test func intTag() throws {
        container.register(tag: 1) { Named("one") }
        container.register(tag: 2) { Named("two") }
        #expect(try (container.resolve(tag: 1) as Named).name == "one")
        #expect(try (container.resolve(tag: 2) as Named).name == "two")
    }

    @Test func tagCasesAndLiterals() throws {
        let fromString: DependencyContainer.Tag = "prod"
        let fromInt: DependencyContainer.Tag = 7
        #expect(fromString == .string("prod"))
        #expect(fromInt == .int(7))
        #expect(DependencyContainer.Tag.String("prod") == .string("prod"))
        #expect(DependencyContainer.Tag.Int(7) == .int(7))
        #expect(fromString != fromInt)
    }

    @Test func everySpellingStandsForItsTag() {
        for (value, tag) in spellings() {
            #expect(value.dependencyTag == tag, "\(value)")
        }
    }

    @Test(arguments: 0..<9)
    func everySpellingRegistersAndResolvesWithEveryEquivalentSpelling(index: Int) throws {
        let (registerWith, tag) = spellings()[index]
        container.register(.singleton, tag: registerWith) { Named("\(tag)") }
        let resolved = try container.resolve(tag: tag) as Named
        for (resolveWith, other) in spellings() where other == tag {
            #expect(try container.resolve(tag: resolveWith) as Named === resolved, "\(resolveWith)")
        }
        for (resolveWith, other) in spellings() where other != tag {
            #expect(throws: ResolutionError.self, "\(resolveWith)") {
                _ = try container.resolve(tag: resolveWith) as Named
            }
        }
    }

    @Test func stringAndIntTagsWithTheSameTextDiffer() throws {
        container.register(tag: 1) { Named("int") }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "1") as Named }
        container.register(tag: "1") { Named("string") }
        #expect(try (container.resolve(tag: 1) as Named).name == "int")
        #expect(try (container.resolve(tag: "1") as Named).name == "string")
    }

    @Test func stringEnumTag() throws {
        container.register(tag: Environment.prod) { Named("prod") }
        container.register(tag: Environment.staging) { Named("staging") }
        #expect(try (container.resolve(tag: Environment.prod) as Named).name == "prod")
        #expect(try (container.resolve(tag: Environment.staging) as Named).name == "staging")
    }

    @Test func intEnumTag() throws {
        container.register(tag: Slot.first) { Named("first") }
        container.register(tag: Slot.second) { Named("second") }
        #expect(try (container.resolve(tag: Slot.first) as Named).name == "first")
        #expect(try (container.resolve(tag: Slot.second) as Named).name == "second")
    }

    @Test func enumTagMatchesItsRawValue() throws {
        container.register(tag: Environment.prod) { Named("prod") }
        container.register(tag: Slot.second) { Named("second") }
        #expect(try (container.resolve(tag: "prod") as Named).name == "prod")
        #expect(try (container.resolve(tag: 2) as Named).name == "second")
    }

    @Test func customTagType() throws {
        container.register(tag: Region(code: "eu")) { Named("eu") }
        #expect(try (container.resolve(tag: Region(code: "eu")) as Named).name == "eu")
        #expect(try (container.resolve(tag: "region-eu") as Named).name == "eu")
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: Region(code: "us")) as Named }
    }

    @Test func tagsSeparateDefinitionsOfOneTypeFromTheUntaggedOne() throws {
        container.register { Named("untagged") }
        container.register(tag: "a") { Named("a") }
        container.register(tag: 1) { Named("1") }
        #expect(try (container.resolve() as Named).name == "untagged")
        #expect(try (container.resolve(tag: "a") as Named).name == "a")
        #expect(try (container.resolve(tag: 1) as Named).name == "1")
        #expect(try (container.resolve(tag: "b") as Named).name == "untagged")
    }

    @Test func nilTagIsUntagged() throws {
        container.register(tag: nil) { Named("untagged") }
        let explicitNil: DependencyTagConvertible? = nil
        #expect(try (container.resolve(tag: explicitNil) as Named).name == "untagged")
        #expect(try (container.resolve() as Named).name == "untagged")
    }

    @Test func taggedDefinitionWithArguments() throws {
        container.register(tag: Environment.staging) { (name: String) in Named(name) }
        #expect(try (container.resolve(tag: Environment.staging, arguments: "x") as Named).name == "x")
        #expect(throws: ResolutionError.self) {
            _ = try container.resolve(tag: Environment.prod, arguments: "x") as Named
        }
    }

    @Test func tagDescriptionIsSwiftSpelling() {
        #expect(DependencyContainer.Tag.string("prod").description == "\"prod\"")
        #expect(DependencyContainer.Tag.int(2).description == "2")
    }

    @Test func tagsAreHashable() {
        let tags: Set<DependencyContainer.Tag> = ["a", "a", 1, .int(1), .string("b"), .String("b")]
        #expect(tags == [.string("a"), .int(1), .string("b")])
    }

    @Test func definitionKeyInitializerAndFields() {
        let key = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "prod")
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Service.self))
        #expect(ObjectIdentifier(key.typeOfArguments) == ObjectIdentifier((Int, String).self))
        #expect(key.tag == .string("prod"))
        let untagged = DefinitionKey(type: Service.self, typeOfArguments: Void.self)
        #expect(untagged.tag == nil)
    }

    @Test func definitionKeysWithTheSameTypesAndTagAreEqualAndHashEqually() {
        let a = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "prod")
        let b = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: .string("prod"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        let dictionary = [a: "found"]
        #expect(dictionary[b] == "found")
    }

    @Test func definitionKeysDifferByTypeArgumentsAndTag() {
        let base = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "prod")
        let variants = [
            DefinitionKey(type: ServiceImp.self, typeOfArguments: (Int, String).self, tag: "prod"),
            DefinitionKey(type: Service?.self, typeOfArguments: (Int, String).self, tag: "prod"),
            DefinitionKey(type: Service.self, typeOfArguments: (String, Int).self, tag: "prod"),
            DefinitionKey(type: Service.self, typeOfArguments: Int.self, tag: "prod"),
            DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "prod"),
            DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "staging"),
            DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: 1),
            DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: nil),
        ]
        for variant in variants {
            #expect(variant != base, "\(variant)")
        }
        #expect(Set(variants + [base]).count == variants.count + 1)
    }

    @Test func definitionKeyDescriptionNamesTypeTagAndArguments() {
        let key = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "prod")
        #expect(key.description == "Service (tag: \"prod\", arguments: (Int, String))")
        #expect(DefinitionKey(type: Service.self, typeOfArguments: Void.self).description == "Service")
        #expect(
            DefinitionKey(type: Service.self, typeOfArguments: Int.self, tag: 3).description
                == "Service (tag: 3, arguments: (Int))")
    }

    @Test func errorKeyEqualsTheKeyBuiltByHand() {
        container.register(tag: "prod") { Named("prod") }
        let error = #expect(throws: ResolutionError.self) {
            _ = try container.resolve(tag: Environment.staging, arguments: 1, "x") as Named
        }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Named.self, typeOfArguments: (Int, String).self, tag: "staging"))
        #expect(
            key.hashValue
                == DefinitionKey(type: Named.self, typeOfArguments: (Int, String).self, tag: "staging").hashValue)
    }

    /// One definition registered under two tags: a resolve under the second is made in a frame of the key it
    /// requested (the fast path points factories' frames at the key inside the definition's slot only when that is
    /// the requested key), so a cycle's path names the tag that was asked for, on every scope's first and later
    /// resolves.
    @Test(arguments: [ComponentScope.unique, .shared, .singleton])
    func aCycleThroughADefinitionRegisteredUnderTwoTagsNamesTheRequestedTag(scope: ComponentScope) throws {
        let definition = container.register(scope, tag: "first") { [unowned container] () throws -> Named in
            // Resolves itself under the second tag: a cycle, whichever tag the outer resolve asked for.
            Named(try (container.resolve(tag: "second") as Named).name)
        }
        container.register(definition, tag: "second")
        let second = DefinitionKey(type: Named.self, typeOfArguments: Void.self, tag: "second")
        for _ in 0..<2 {
            let error = #expect(throws: ResolutionError.self) {
                _ = try container.resolve(tag: "second") as Named
            }
            guard case .circularDependency(let path)? = error else {
                Issue.record("expected circularDependency, got \(String(describing: error))")
                return
            }
            #expect(path == [second, second], "\(path)")
        }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "first") as Named }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        // The path closes at the definition that runs twice, under the key its outermost frame was requested by.
        let first = DefinitionKey(type: Named.self, typeOfArguments: Void.self, tag: "first")
        #expect(path == [first, first], "\(path)")
    }

    @Test func definitionKeyIsSendable() async {
        let key = DefinitionKey(type: Named.self, typeOfArguments: Void.self, tag: 1)
        let copy = await Task.detached { key }.value
        #expect(copy == key)
    }
}
