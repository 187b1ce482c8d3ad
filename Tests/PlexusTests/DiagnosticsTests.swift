import Plexus
import PlexusTesting
import Testing

// Fixture names unique to this file, so that messages of suites running in parallel cannot be mistaken for these.
private final class DiagApi {
    init(next: DiagApi?) {}
    init(hop: DiagHop) {}
}
private final class DiagHop {
    init(api: DiagApi) {}
}
private final class DiagStore {}
private final class DiagNeedsStore {
    init(store: DiagStore) {}
}
private final class DiagMid {
    init(needsStore: DiagNeedsStore) {}
}
private final class DiagTop {
    init(mid: DiagMid) {}
}
private protocol DiagApiClient {}
private final class DiagHTTPApiClient: DiagApiClient {}
private final class DiagRepository {}
private protocol Api {}
private protocol Interface {}
private final class Other {}

/// What error messages say: cycle paths, "required by" chains, fixes and grammar.
@Suite(.silencingPlexusLogs) struct DiagnosticsTests {
    let container = DependencyContainer()

    private func description(_ body: () throws -> Void) throws -> String {
        "\(try #require(throws: ResolutionError.self) { try body() })"
    }

    @Test func cyclePathNamesTagsOfEachStep() throws {
        container.register(tag: "a") { [container] in DiagApi(next: try container.resolve(tag: "b")) }
        container.register(tag: "b") { [container] in DiagApi(next: try container.resolve(tag: "a")) }
        let text = try description { _ = try container.resolve(tag: "a") as DiagApi }
        #expect(text.contains(#"DiagApi (tag: "a") -> DiagApi (tag: "b") -> DiagApi (tag: "a")"#))
    }

    @Test func cyclePathNamesArgumentTypes() throws {
        container.register { [container] (id: Int) in DiagApi(next: try container.resolve(arguments: "x")) }
        container.register { [container] (name: String) in DiagApi(next: try container.resolve(arguments: 1)) }
        let text = try description { _ = try container.resolve(arguments: 1) as DiagApi }
        #expect(
            text.contains(
                "DiagApi (arguments: (Int)) -> DiagApi (arguments: (String)) -> DiagApi (arguments: (Int))"))
    }

    @Test func repeatedRunsOfACycleAreWrittenOnceWithACount() throws {
        // Each container's `DiagApi` resolves its own `DiagHop`, which resolves the next container's `DiagApi`: the
        // path alternates the same two names 60 times.
        let containers = (0..<60).map { _ in DependencyContainer() }
        for (index, container) in containers.enumerated() {
            let next = containers[(index + 1) % containers.count]
            container.register { [unowned container] in DiagApi(hop: try container.resolve()) }
            container.register { [unowned next] in DiagHop(api: try next.resolve()) }
        }
        let text = try description { _ = try containers[0].resolve() as DiagApi }
        #expect(text.contains("Circular dependency: (DiagApi -> DiagHop) ×60 -> DiagApi."))
    }

    @Test func longCyclePathIsElided() throws {
        for index in 0..<300 {
            container.register(tag: index) { [container] in DiagApi(next: try container.resolve(tag: (index + 1) % 300))
            }
        }
        let text = try description { _ = try container.resolve(tag: 0) as DiagApi }
        #expect(text.contains("DiagApi (tag: 0) -> DiagApi (tag: 1) -> "))
        #expect(text.contains(" -> … (289 more) … -> "))
        #expect(text.contains("DiagApi (tag: 299) -> DiagApi (tag: 0)."))
        #expect(text.count < 1_000)
    }

    @Test func notFoundDeepInAGraphSaysWhatRequiredIt() throws {
        container.register { [container] in DiagTop(mid: try container.resolve()) }
        container.register { [container] in DiagMid(needsStore: try container.resolve()) }
        container.register { [container] in DiagNeedsStore(store: try container.resolve()) }
        let text = try description { _ = try container.resolve() as DiagTop }
        #expect(
            text.hasPrefix(
                "No definition registered for DiagStore, required by DiagNeedsStore, required by DiagMid, "
                    + "required by DiagTop."))
    }

    @Test func requiredByChainNamesInstancesWhoseHooksRun() throws {
        container.register { DiagRepository() }
            .resolvingProperties { container, _ in _ = try container.resolve() as DiagNeedsStore }
        container.register { [container] in DiagNeedsStore(store: try container.resolve()) }
        let text = try description { _ = try container.resolve() as DiagRepository }
        #expect(
            text.hasPrefix(
                "No definition registered for DiagStore, required by DiagNeedsStore, required by DiagRepository."))
    }

    @Test func notFoundAtTheTopHasNoRequiredByChain() throws {
        let text = try description { _ = try container.resolve() as DiagStore }
        #expect(!text.contains("required by"))
    }

    @Test func invalidTypeUsesTheRightArticle() throws {
        container.register { Other() }.implements(Api.self).implements(Interface.self, tag: "i")
        #expect(try description { _ = try container.resolve() as Api }.contains("which is not an Api."))
        #expect(try description { _ = try container.resolve(tag: "i") as Interface }.contains("not an Interface."))
    }

    @Test func argumentOfAConcreteTypeGetsAFixWhereTheDefinitionTakesAProtocol() throws {
        container.register { (client: DiagApiClient) in DiagRepository() }
        let text = try description {
            _ = try container.resolve(arguments: DiagHTTPApiClient()) as DiagRepository
        }
        #expect(text.contains("registered with arguments (DiagApiClient)"))
        #expect(text.contains("pass DiagHTTPApiClient as DiagApiClient (`value as DiagApiClient`)"))
        let cast = DiagHTTPApiClient() as DiagApiClient
        _ = try container.resolve(arguments: cast) as DiagRepository
    }

    @Test func argumentsOfSeveralGetAFixForTheOneThatDiffers() throws {
        container.register { (client: DiagApiClient, id: Int) in DiagRepository() }
        let text = try description {
            _ = try container.resolve(arguments: DiagHTTPApiClient(), 1) as DiagRepository
        }
        #expect(text.contains("pass DiagHTTPApiClient as DiagApiClient"))
        #expect(!text.contains("pass Int"))
    }

    @Test func plainValuesGetNoCastSuggestion() throws {
        container.register { (name: String) in DiagRepository() }
        let text = try description { _ = try container.resolve(arguments: 1) as DiagRepository }
        #expect(text.contains("registered with arguments (String)"))
        #expect(!text.contains("pass Int as String"))
    }

    @Test func notFoundAfterACollaboratorWasReleasedSaysItIsGone() throws {
        var module: DependencyContainer? = DependencyContainer()
        module?.register { DiagStore() }
        if let module { container.collaborate(with: module) }
        #expect(throws: Never.self) { _ = try container.resolve() as DiagStore }
        module = nil
        let text = try description { _ = try container.resolve() as DiagStore }
        #expect(text.contains("A collaborator of the searched containers has been released"))
        #expect(!text.contains("make a container that has one a collaborator"))
        // Still said after the released link was dropped by a later `collaborate`.
        let other = DependencyContainer()
        container.collaborate(with: other)
        #expect(try description { _ = try container.resolve() as DiagStore }.contains("has been released"))
        withExtendedLifetime(other) {}
    }

    /// A closure argument's type is named in parentheses, as any other single argument: `(() -> Int)`.
    @Test func aClosureArgumentIsNamedInParentheses() {
        final class Made {}
        let container = DependencyContainer()
        container.register { (_: @escaping () -> Int) in Made() }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(arguments: 1) as Made }
        #expect(error?.description.contains("with arguments (() -> Int)") == true, "\(String(describing: error))")
    }

    /// Argument types with the same name from two places are told apart by their full names.
    @Test func sameNamedArgumentTypesAreToldApart() {
        enum Billing { struct Config {} }
        enum Shipping { struct Config {} }
        final class Made {}
        let container = DependencyContainer()
        container.register { (_: Billing.Config) in Made() }
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(arguments: Shipping.Config()) as Made
        }
        #expect(error?.description.contains("Billing") == true, "\(String(describing: error))")
        #expect(error?.description.contains("Shipping") == true, "\(String(describing: error))")
    }
}
