import Plexus
import PlexusTesting
import Testing

// Type names unique to this file, so that messages from suites running in parallel can be told apart.
private final class ForgottenDetail: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class ForgottenCell: Sendable {
    init(id: Int, title: String) {}
}
private final class ForgottenStore: Sendable {}
private final class ForgottenScreen: Sendable {
    init(store: ForgottenStore) {}
}
private final class ForgottenRow: Sendable {
    init(screen: ForgottenScreen) {}
}

@Suite(.silencingPlexusLogs) struct ForgottenArgumentTests {
    let container = DependencyContainer()

    @Test func aForgottenRuntimeArgumentSaysToPassIt() throws {
        container.register { (id: Int) in ForgottenDetail(id: id) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve() as ForgottenDetail }
        let text = "\(error)"
        #expect(text.hasPrefix("Failed to auto-wire ForgottenDetail: No definition registered for Int"))
        #expect(text.contains("ForgottenDetail's definition takes (Int) at runtime"))
        #expect(text.contains("`try container.resolve(arguments: 42)`"))
        #expect(!text.contains("Register one with `register`"))
        #expect(try (container.resolve(arguments: 42) as ForgottenDetail).id == 42)
    }

    @Test func theUnderlyingErrorStaysAvailable() throws {
        container.register { (id: Int) in ForgottenDetail(id: id) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve() as ForgottenDetail }
        guard case .autoWiringFailed(let type, let underlying) = error,
            case .definitionNotFound(let key)? = underlying as? ResolutionError
        else {
            Issue.record("expected autoWiringFailed wrapping definitionNotFound, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(ForgottenDetail.self))
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Int.self))
    }

    @Test func severalArgumentsAreNamedTogether() throws {
        container.register { (id: Int, title: String) in ForgottenCell(id: id, title: title) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve() as ForgottenCell }
        #expect("\(error)".contains("ForgottenCell's definition takes (Int, String) at runtime"))
        #expect("\(error)".contains("`try container.resolve(arguments: 42, \"text\")`"))
    }

    @Test func aMissingDependencyOfAnArgumentKeepsTheAdviceToRegister() throws {
        container.register { (screen: ForgottenScreen) in ForgottenRow(screen: screen) }
        container.register { [unowned container] in ForgottenScreen(store: try container.resolve()) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve() as ForgottenRow }
        #expect("\(error)".contains("No definition registered for ForgottenStore"))
        #expect(!"\(error)".contains("at runtime"))
    }

    @Test func validateSaysToPassTheArgument() throws {
        container.register { (id: Int) in ForgottenDetail(id: id) }
        let error = try #require(throws: ResolutionError.self) { try container.validate() }
        #expect("\(error)".hasPrefix("Validation of ForgottenDetail"))
        #expect("\(error)".contains("ForgottenDetail's definition takes (Int) at runtime"))
        #expect("\(error)".contains("`try container.validate(42)`"))
        try container.validate(42)
    }

    @Test func theAsynchronousResolveSaysToPassTheArgument() async throws {
        container.register { (id: Int) async in ForgottenDetail(id: id) }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve() as ForgottenDetail }
        #expect(error.map { "\($0)" }?.contains("ForgottenDetail's definition takes (Int) at runtime") == true)
    }

    @Test func expectValidGraphTakesTheArguments() {
        container.register { (id: Int) in ForgottenDetail(id: id) }
        #expect(expectValidGraph(container, 42))
        withKnownIssue {
            expectValidGraph(container)
        } matching: { issue in
            issue.description.contains("ForgottenDetail's definition takes (Int) at runtime")
        }
    }
}
