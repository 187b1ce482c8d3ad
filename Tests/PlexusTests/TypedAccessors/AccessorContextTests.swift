import Plexus
import PlexusTesting
import Testing

private protocol Analytics: Sendable {
    var name: String { get }
}
private struct ConsoleAnalytics: Analytics {
    let name = "console"
}
private struct NamedAnalytics: Analytics {
    let name: String
}

extension DependencyContainer {
    fileprivate var testAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.onTest { NamedAnalytics(name: "test") }
    }
    fileprivate var contextAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.context(.test) { NamedAnalytics(name: "test") }
    }
    fileprivate var previewAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.onPreview { NamedAnalytics(name: "preview") }
    }
    fileprivate var argumentAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.onArg("--plexus-no-such-argument") { NamedAnalytics(name: "argument") }
    }
    fileprivate var debugAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.onDebug { NamedAnalytics(name: "debug") }
    }
    fileprivate var layeredAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }
            .onTest { NamedAnalytics(name: "first") }
            .context(.test) { NamedAnalytics(name: "last") }
    }
    fileprivate var keptAnalytics: Factory<Analytics> {
        self { ConsoleAnalytics() }.singleton.onTest { NamedAnalytics(name: "test") }
    }

    fileprivate var argumentDetail: ParameterFactory<Int, String> {
        self { id in "detail \(id)" }.onTest { id in "test detail \(id)" }
    }
    fileprivate var keptArgumentDetail: ParameterFactory<Int, String> {
        self { id in "detail \(id)" }.singleton.context(.test) { id in "test detail \(id)" }
    }
    fileprivate var previewDetail: ParameterFactory<Int, String> {
        self { id in "detail \(id)" }.onPreview { id in "preview detail \(id)" }
    }
    fileprivate var asyncAnalytics: AsyncFactory<Analytics> {
        self { ConsoleAnalytics() }.singleton.onTest {
            await Task.yield()
            return NamedAnalytics(name: "async test")
        }
    }
    fileprivate var asyncArgumentAnalytics: AsyncFactory<Analytics> {
        self { ConsoleAnalytics() }.onArg("--plexus-no-such-argument") { NamedAnalytics(name: "argument") }
    }
    fileprivate var mainActorAnalytics: MainActorFactory<Analytics> {
        self { @MainActor in ConsoleAnalytics() }.shared.onTest { @MainActor in NamedAnalytics(name: "main test") }
    }
    fileprivate var mainActorDebugAnalytics: MainActorFactory<Analytics> {
        self { @MainActor in ConsoleAnalytics() }.onDebug { NamedAnalytics(name: "debug") }
    }

    fileprivate enum NamespaceContextServices {}
    fileprivate typealias ContextServices = Namespace<NamespaceContextServices>
    fileprivate var contextServices: ContextServices { namespace() }
}

extension DependencyContainer.ContextServices {
    fileprivate var analytics: SingletonFactory<Analytics> {
        get { resolve { ConsoleAnalytics() }.onTest { NamedAnalytics(name: "namespace test") } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorContextTests {
    let container = DependencyContainer()

    @Test func theTestContextHoldsWhileTestsRun() {
        #expect(container.testAnalytics().name == "test")
        #expect(container.contextAnalytics().name == "test")
        #expect(container.contextServices.analytics().name == "namespace test")
    }

    @Test func thePreviewContextHoldsOnlyForPreviews() {
        #expect(container.previewAnalytics().name == "console")
    }

    @Test func anArgumentContextHoldsOnlyWhenLaunchedWithIt() {
        #expect(container.argumentAnalytics().name == "console")
    }

    @Test func theDebugContextFollowsTheDeclaringModulesBuild() {
        var isDebugBuild = false
        assert(
            {
                isDebugBuild = true
                return true
            }())
        #expect(container.debugAnalytics().name == (isDebugBuild ? "debug" : "console"))
    }

    @Test func theContextWrittenLastWins() {
        #expect(container.layeredAnalytics().name == "last")
    }

    @Test func aContextKeepsTheStorage() {
        #expect(container.keptAnalytics.scope == .singleton)
    }

    @Test func anAccessorTakingAnArgumentHasContextsWhoseFactoryTakesIt() {
        #expect(container.argumentDetail(7) == "test detail 7")
        #expect(container.keptArgumentDetail(8) == "test detail 8")
        #expect(container.keptArgumentDetail.scope == .singleton)
        #expect(container.previewDetail(9) == "detail 9")
    }

    @Test func anAsyncAccessorHasContexts() async throws {
        #expect(try await container.asyncAnalytics().name == "async test")
        #expect(container.asyncAnalytics.scope == .singleton)
        #expect(try await container.asyncArgumentAnalytics().name == "console")
    }

    @MainActor
    @Test func aMainActorAccessorHasContexts() {
        var isDebugBuild = false
        assert(
            {
                isDebugBuild = true
                return true
            }())
        #expect(container.mainActorAnalytics().name == "main test")
        #expect(container.mainActorAnalytics.scope == .shared)
        #expect(container.mainActorDebugAnalytics().name == (isDebugBuild ? "debug" : "console"))
    }

    @Test func anOverrideWinsOverAContextOnEveryKind() async throws {
        container.argumentDetail.replace { id in "override \(id)" }
        #expect(container.argumentDetail(1) == "override 1")
        container.asyncAnalytics.replace { NamedAnalytics(name: "override") }
        #expect(try await container.asyncAnalytics().name == "override")
    }

    @Test func anOverrideWinsOverAContext() {
        container.testAnalytics.replace { NamedAnalytics(name: "override") }
        #expect(container.testAnalytics().name == "override")
    }

    @Test func theDeclaredDefaultsCompanionUsesTheContextToo() {
        container.testAnalytics.replace { NamedAnalytics(name: "override") }
        #expect(container.defaults.testAnalytics().name == "test")
    }
}
