import Plexus
import PlexusTesting
import Testing

private final class Something: Sendable {}
private final class Other: Sendable {}
private struct Environment: Sendable, Equatable {
    let baseURL: String
}

extension DependencyContainer {
    fileprivate var keyedSomething: Factory<Something> { self { Something() } }
}

@Suite(.silencingPlexusLogs) struct KeyedInjectionTests {
    let container = DependencyContainer()

    @Test func injectUnderAKeyResolvesByTypeAndKey() throws {
        let something = Something()
        container.inject(key: "Something", something)
        #expect(try container.resolve(Something.self, key: "Something") === something)
        #expect(try container.resolve(tag: "Something") as Something === something)
    }

    @Test func injectByStaticTypeResolvesUntagged() throws {
        container.inject(Environment(baseURL: "https://example.invalid"))
        let environment: Environment = try container.resolve()
        #expect(environment.baseURL == "https://example.invalid")
    }

    @Test func injectAgainReplacesTheValue() throws {
        container.inject(key: "env", Environment(baseURL: "a"))
        container.inject(key: "env", Environment(baseURL: "b"))
        #expect(try container.resolve(Environment.self, key: "env").baseURL == "b")
    }

    @Test func wrongKeyThrowsNamingTheKeyThatExists() {
        container.inject(key: "Something", Something())
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(Something.self, key: "Somethin")
        }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.tag == "Somethin")
        #expect(error?.description.contains("registered for tag \"Something\"") == true)
    }

    @Test func wrongTypeThrowsNamingTheTypeRegisteredUnderTheKey() {
        container.inject(key: "Something", Something())
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(Other.self, key: "Something")
        }
        #expect(error?.description.contains("is registered for type Something") == true)
    }

    @Test func keyedResolveNeverFallsBackToAnUntaggedDefinition() {
        container.inject(Something())
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(Something.self, key: "Something")
        }
        #expect(error?.description.contains("without a tag") == true)
    }

    @Test func keyedResolveLooksInCollaborators() throws {
        let module = DependencyContainer(name: "Module")
        let something = Something()
        module.inject(key: "Something", something)
        container.collaborate(with: module)
        #expect(try container.resolve(Something.self, key: "Something") === something)
        #expect(throws: ResolutionError.self) { try module.resolve(Other.self, key: "Something") }
    }

    /// A typed accessor's key is a near miss once the accessor was used: by its tag for another type, and as
    /// another tag of the same type (a misspelt key).
    @Test func aMissNamesTheKeysOfTypedAccessorsUsedHere() {
        _ = container.keyedSomething()
        let misspelt = #expect(throws: ResolutionError.self) {
            try container.resolve(Something.self, key: "DependencyContainer.keyedSomethin")
        }
        #expect(misspelt?.description.contains("\"DependencyContainer.keyedSomething\"") == true)
        let wrongType = #expect(throws: ResolutionError.self) {
            try container.resolve(Other.self, key: "DependencyContainer.keyedSomething")
        }
        #expect(wrongType?.description.contains("registered for type Something") == true)
    }

    /// With nothing near, the advice is how to register under a key: an untagged registration would not answer.
    @Test func aMissWithNoNearMissAdvisesRegisteringUnderTheKey() {
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Something.self, key: "Missing") }
        #expect(error?.description.contains("`container.inject(key: \"Missing\", …)`") == true)
        #expect(error?.description.contains("container.register { …") == false)
    }

    @Test func containerStaysUsableAfterAMiss() throws {
        #expect(throws: ResolutionError.self) { try container.resolve(Something.self, key: "x") }
        let something = Something()
        container.inject(key: "x", something)
        #expect(try container.resolve(Something.self, key: "x") === something)
    }
}
