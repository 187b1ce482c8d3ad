import Plexus
import PlexusTesting
import Testing

private final class Mailer: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

extension DependencyContainer {
    fileprivate var mailer: Factory<Mailer> { self { Mailer(name: "smtp") } }
    fileprivate var testMailer: Factory<Mailer> {
        self { Mailer(name: "smtp") }.onTest { Mailer(name: "declared test") }
    }
    fileprivate var mailerFor: ParameterFactory<String, Mailer> { self { Mailer(name: $0) } }
}

/// A context modifier written where the accessor is used, as a Factory user writes a test override.
@Suite(.silencingPlexusLogs) struct CallSiteContextTests {
    private let container = DependencyContainer()

    @Test func onTestAtACallSiteOverridesTheAccessor() {
        container.mailer.onTest { Mailer(name: "mock") }
        #expect(container.mailer().name == "mock")
        container.mailer.reset()
        #expect(container.mailer().name == "smtp")
    }

    @Test func contextThatDoesNotHoldAtACallSiteChangesNothing() {
        container.mailer.onPreview { Mailer(name: "preview") }
        container.mailer.onArg("--plexus-never-passed") { Mailer(name: "argument") }
        #expect(container.mailer().name == "smtp")
    }

    @Test func parameterAccessorTakesACallSiteContext() {
        container.mailerFor.onTest { Mailer(name: "mock \($0)") }
        #expect(container.mailerFor("x").name == "mock x")
    }

    @Test func contextInTheDeclarationStillOnlyChangesTheDefault() {
        #expect(container.testMailer().name == "declared test")
        container.testMailer.replace { Mailer(name: "override") }
        #expect(container.testMailer().name == "override")
    }
}
