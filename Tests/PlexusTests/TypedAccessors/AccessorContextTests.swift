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

    @Test func anOverrideWinsOverAContext() {
        container.testAnalytics.replace { NamedAnalytics(name: "override") }
        #expect(container.testAnalytics().name == "override")
    }

    @Test func theDeclaredDefaultsCompanionUsesTheContextToo() {
        container.testAnalytics.replace { NamedAnalytics(name: "override") }
        #expect(container.defaults.testAnalytics().name == "test")
    }
}
