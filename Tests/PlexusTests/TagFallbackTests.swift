import Plexus
import PlexusTesting
import Testing

// Type names unique to this file, so that messages from suites running in parallel can be told apart.
private final class FallbackProbe: Sendable {}
private final class FallbackWrapper: Sendable {
    let probe: FallbackProbe
    init(probe: FallbackProbe) { self.probe = probe }
}

/// Runs `body` logging at `.errors` into a fresh log, for this task only.
private func loggedAtErrors(_ body: () throws -> Void) rethrows -> [String] {
    let messages = Log()
    try Plexus.withLogging(level: .errors, logger: messages.logger) { try body() }
    return messages.entries
}

@Suite(.silencingPlexusLogs) struct TagFallbackTests {
    let container = DependencyContainer()

    @Test func aTaggedRequestFallsBackToTheUntaggedDefinitionByDefault() throws {
        container.register(.singleton) { FallbackProbe() }
        #expect(container.fallsBackToUntaggedDefinitions)
        let untagged = try container.resolve() as FallbackProbe
        #expect(try container.resolve(tag: "typo") as FallbackProbe === untagged)
    }

    @Test func aFallbackIsLoggedAtTheDefaultLevelSayingHowToSilenceIt() throws {
        container.register { FallbackProbe() }
        container.register(tag: "exact") { FallbackProbe() }
        let messages = try loggedAtErrors {
            _ = try container.resolve(tag: "exact") as FallbackProbe
            _ = try container.resolve() as FallbackProbe
            _ = try container.resolve(tag: "typo") as FallbackProbe
        }.filter { $0.contains("FallbackProbe") }
        #expect(messages.count == 1)
        let message = try #require(messages.first)
        #expect(message.contains("no definition for FallbackProbe (tag: \"typo\")"))
        #expect(message.contains("using the untagged FallbackProbe"))
        #expect(message.contains("Register FallbackProbe for that tag, or resolve it without a tag"))
        #expect(message.contains("fallsBackToUntaggedDefinitions = false"))
    }

    @Test func aTagPassedDownByAutoWiringIsLoggedOnlyWhereItWasGiven() throws {
        container.register { FallbackProbe() }
        container.register { (probe: FallbackProbe) in FallbackWrapper(probe: probe) }
        let messages = try loggedAtErrors { _ = try container.resolve(tag: "typo") as FallbackWrapper }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("no definition for FallbackWrapper (tag: \"typo\")") == true)
    }

    @Test(arguments: [ComponentScope.unique, .shared, .singleton])
    func aStrictContainerThrowsDefinitionNotFoundNamingTheUntaggedNearMiss(scope: ComponentScope) throws {
        container.register(scope) { FallbackProbe() }
        container.fallsBackToUntaggedDefinitions = false
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe }
        guard case .definitionNotFound(let key) = error else {
            Issue.record("expected definitionNotFound, got \(error)")
            return
        }
        #expect(key.tag == "typo")
        #expect("\(error)".contains("Near miss: FallbackProbe is registered without a tag."))
        #expect("\(error)".contains("`fallsBackToUntaggedDefinitions` is false"))
        _ = try container.resolve() as FallbackProbe
    }

    @Test func aStrictContainerStillAnswersItsExactTags() throws {
        container.register(tag: "exact") { FallbackProbe() }
        container.register { FallbackProbe() }
        container.fallsBackToUntaggedDefinitions = false
        let messages = try loggedAtErrors {
            _ = try container.resolve(tag: "exact") as FallbackProbe
            _ = try container.resolve() as FallbackProbe
        }
        #expect(messages.isEmpty)
    }

    /// Resolving first fills the caches that later resolves take (remembered routes, the fast path), which must
    /// follow the setting when it changes.
    @Test(arguments: [ComponentScope.unique, .shared, .singleton])
    func changingTheSettingTakesEffectOnTheNextResolve(scope: ComponentScope) throws {
        container.register(scope) { FallbackProbe() }
        for _ in 0..<3 {
            _ = try container.resolve(tag: "typo") as FallbackProbe
            _ = try container.resolve(tag: "typo") as FallbackProbe?
        }
        container.fallsBackToUntaggedDefinitions = false
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe }
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe? }
        container.fallsBackToUntaggedDefinitions = true
        _ = try container.resolve(tag: "typo") as FallbackProbe
    }

    @Test func taggedAutoWiringFollowsTheSetting() throws {
        container.register { FallbackProbe() }
        container.register { (probe: FallbackProbe) in FallbackWrapper(probe: probe) }
        _ = try container.resolve(tag: "typo") as FallbackWrapper
        container.fallsBackToUntaggedDefinitions = false
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackWrapper }
        _ = try container.resolve() as FallbackWrapper
    }

    @Test func aStrictContainerStillPassesATagDownToUntaggedDependencies() throws {
        container.fallsBackToUntaggedDefinitions = false
        container.register(.singleton) { FallbackProbe() }
        container.register(tag: "prod") { (probe: FallbackProbe) in FallbackWrapper(probe: probe) }
        container.register(.unique, tag: "keyed") { [unowned container] in
            FallbackWrapper(probe: try container.resolve(tag: "keyed"))
        }
        let untagged: FallbackProbe = try container.resolve()
        #expect(try (container.resolve(tag: "prod") as FallbackWrapper).probe === untagged)
        #expect(try (container.resolve(tag: "keyed") as FallbackWrapper).probe === untagged)
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe }
    }

    @Test func aFallbackForAPassedDownTagDoesNotOpenTheWayForTheCallersOwnRequest() throws {
        final class Holder: Sendable {
            let wrapper: FallbackWrapper
            init(wrapper: FallbackWrapper) { self.wrapper = wrapper }
        }
        container.fallsBackToUntaggedDefinitions = false
        container.register { FallbackProbe() }
        container.register { (probe: FallbackProbe) in FallbackWrapper(probe: probe) }
        container.register(.unique, tag: "outer") { [unowned container] in
            Holder(wrapper: try container.resolve(tag: "outer"))
        }
        _ = try container.resolve(tag: "outer") as Holder
        _ = try container.resolve(tag: "outer") as Holder
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "outer") as FallbackWrapper }
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "outer") as FallbackWrapper? }
    }

    @Test func resetKeepsTheSetting() {
        container.fallsBackToUntaggedDefinitions = false
        container.reset()
        #expect(container.fallsBackToUntaggedDefinitions == false)
    }
}

// MARK: - Collaborators

extension TagFallbackTests {
    @Test func aStrictCollaboratorDoesNotAnswerATagWithItsUntaggedDefinition() throws {
        let module = DependencyContainer()
        module.register { FallbackProbe() }
        module.fallsBackToUntaggedDefinitions = false
        container.collaborate(with: module)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe }
        #expect("\(error)".contains("Near miss: FallbackProbe is registered without a tag."))
        _ = try container.resolve() as FallbackProbe
    }

    @Test func aCollaboratorsOwnSettingDecidesForItsDefinitions() throws {
        let module = DependencyContainer()
        module.register { FallbackProbe() }
        container.fallsBackToUntaggedDefinitions = false
        container.collaborate(with: module)
        let messages = try loggedAtErrors { _ = try container.resolve(tag: "typo") as FallbackProbe }
        #expect(messages.contains { $0.contains("using the untagged FallbackProbe") })
    }

    @Test func makingACollaboratorStrictDropsTheRouteToItsFallback() throws {
        let module = DependencyContainer()
        module.register(.singleton) { FallbackProbe() }
        container.collaborate(with: module)
        for _ in 0..<3 { _ = try container.resolve(tag: "typo") as FallbackProbe }
        module.fallsBackToUntaggedDefinitions = false
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "typo") as FallbackProbe }
    }

    @Test(arguments: [false, true])
    func aStrictCollaboratorsFallbackForAPassedDownTagDoesNotAnswerTheCallersOwnRequest(asOptional: Bool) throws {
        let module = DependencyContainer()
        module.fallsBackToUntaggedDefinitions = false
        module.register { FallbackProbe() }
        container.collaborate(with: module)
        container.register(.unique, tag: "t") { [unowned container] in
            FallbackWrapper(probe: try container.resolve(tag: "t"))
        }
        func callersOwnRequest() throws {
            if asOptional {
                _ = try container.resolve(tag: "t") as FallbackProbe?
            } else {
                _ = try container.resolve(tag: "t") as FallbackProbe
            }
        }
        #expect(throws: ResolutionError.self) { try container.resolve(tag: "t") as FallbackProbe }
        for _ in 0..<2 {
            _ = try container.resolve(tag: "t") as FallbackWrapper
            #expect(throws: ResolutionError.self) { try callersOwnRequest() }
        }
    }

    @Test func aStrictContainerLooksForTheTagInItsCollaboratorsBeforeFailing() throws {
        let module = DependencyContainer()
        let tagged = FallbackProbe()
        module.register(tag: "typo") { tagged }
        container.register { FallbackProbe() }
        container.collaborate(with: module)
        #expect(try container.resolve(tag: "typo") as FallbackProbe !== tagged, "the untagged definition here wins")
        container.fallsBackToUntaggedDefinitions = false
        #expect(try container.resolve(tag: "typo") as FallbackProbe === tagged)
    }
}
