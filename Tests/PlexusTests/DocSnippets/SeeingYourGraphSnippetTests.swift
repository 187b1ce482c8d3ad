import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article SeeingYourGraph.md, kept here with the fixture types they assume so that they
// cannot rot.

private final class PriceFormatter {}
private final class PaymentService {
    init(formatter: PriceFormatter) {}
}
private final class CheckoutModule {
    let container = DependencyContainer(name: "Checkout")
    init() {
        container.register(.singleton) { PriceFormatter() }
        container.register(.singleton) { [container] in PaymentService(formatter: try container.resolve()) }
    }
}

@Suite(.silencingPlexusLogs) struct SeeingYourGraphSnippetTests {
    @Test func theOverviewFindsTheCaptiveFormatter() throws {
        let checkout = DependencyContainer(name: "Checkout")
        checkout.register(.singleton) { c in PaymentService(formatter: try c.resolve()) }
        checkout.register(.unique) { PriceFormatter() }

        let report = try checkout.validate()
        let finding = try #require(report.findings.first)
        #expect(finding.kind == .captiveDependency)
        #expect(finding.description.hasPrefix("The singleton PaymentService in Checkout ("))
        #expect(
            finding.description.contains(
                "depends on the unique PriceFormatter in Checkout directly, so it keeps that instance alive for as long as it lives"
            ))
    }

    @Test func checkoutHasNoCaptiveDependency() throws {
        let report = try CheckoutModule().container.validate()
        #expect(report.findings(.captiveDependency).isEmpty, "\(report.findings)")
    }

    @Test func mergingTheModulesReports() throws {
        let root = DependencyContainer(name: "Root")
        let eventsList = DependencyContainer(name: "EventsList")
        let addEvent = DependencyContainer(name: "AddEvent")
        let app = GraphReport(merging: try [root, eventsList, addEvent].map { try $0.validate() })
        #expect(app.containers.map(\.name) == ["Root", "EventsList", "AddEvent"])
    }
}
