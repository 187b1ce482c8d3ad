import Plexus
import PlexusTesting
import Testing

// The snippets of TypedAccessors.md's "Contexts" section, kept as the article writes them (with the fixture types
// they assume) so that they cannot rot. They declare `detail` and `database` again, with contexts, so they live
// apart from the article's other snippets. These tests run under a test runner, where `.onTest` holds and
// `.onPreview` does not.

private protocol Payments: Sendable {}
private struct LivePayments: Payments {}
private struct MockPayments: Payments {}
private struct PreviewPayments: Payments {}
private struct LoggingPayments: Payments {}

private class Detail: @unchecked Sendable {  // immutable, and subclassed by the preview sample
    let id: Int
    init(id: Int) { self.id = id }
}
private final class SampleDetail: Detail, @unchecked Sendable {}

private final class Database: Sendable {
    let isInMemory: Bool
    init(isInMemory: Bool) { self.isInMemory = isInMemory }
    static func open() async throws -> Database { Database(isInMemory: false) }
    static func inMemory() -> Database { Database(isInMemory: true) }
}

extension DependencyContainer {
    fileprivate var payments: Factory<Payments> {
        self { LivePayments() }
            .onDebug { LoggingPayments() }  // in a Debug build of this module
            .onPreview { PreviewPayments() }  // in Xcode's SwiftUI previews
            .onTest { MockPayments() }  // under Swift Testing or XCTest
            .onArg("--mock-payments") { MockPayments() }
    }
}

extension DependencyContainer {
    fileprivate var detail: ParameterFactory<Int, Detail> {
        self { id in Detail(id: id) }.onPreview { id in SampleDetail(id: id) }
    }
    fileprivate var database: AsyncFactory<Database> {
        self { try await Database.open() }.singleton.onTest { Database.inMemory() }
    }
}

@Suite(.silencingPlexusLogs) struct TypedAccessorsContextsSnippetTests {
    @Test func theLastContextThatHoldsGivesTheDefault() {
        let container = DependencyContainer()
        #expect(container.payments() is MockPayments)  // tests, in a Debug build or not
    }

    @Test func aContextInADeclarationOnlyChangesTheDeclaredDefault() {
        let container = DependencyContainer()
        container.payments.replace { LivePayments() }
        #expect(container.payments() is LivePayments)  // the override wins
        container.payments.reset()
        #expect(container.payments() is MockPayments)
    }

    @Test func aContextsFactoryIsOfTheAccessorsOwnKind() async throws {
        let container = DependencyContainer()
        let detail = container.detail(42)
        #expect(!(detail is SampleDetail) && detail.id == 42)  // not in a preview
        let database = try await container.database()
        #expect(database.isInMemory)  // `.onTest`
        #expect(database === (try await container.database()))  // still `.singleton`
    }

    @Test func aModifierAtACallSiteOverridesWhenItsContextHolds() {
        let container = DependencyContainer()
        container.payments.onPreview { PreviewPayments() }  // not in a preview: nothing
        #expect(container.payments() is MockPayments)
        container.payments.onTest { LivePayments() }
        #expect(container.payments() is LivePayments)
    }
}
