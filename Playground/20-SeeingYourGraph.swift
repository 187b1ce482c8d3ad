import Plexus

// `validate` returns a report of the graph it built: the definitions per container, who resolves whom, and
// findings. Two small modules here: a shared "Core" and a "Checkout" feature that collaborates with it, where the
// checkout's payment service, a singleton, holds a formatter registered `.unique`: a captive dependency.

private final class Clock {}
private final class PriceFormatter {}
private final class PaymentService {
    let formatter: PriceFormatter
    let clock: Clock
    init(formatter: PriceFormatter, clock: Clock) {
        self.formatter = formatter
        self.clock = clock
    }
}
private final class CheckoutScreen {
    var payments: PaymentService?
}

@MainActor
func seeingYourGraph() throws {
    let core = DependencyContainer(name: "Core")
    core.register(.singleton) { Clock() }
    core.register(.unique) { PriceFormatter() }

    let checkout = DependencyContainer(name: "Checkout")
    checkout.register(.singleton) { c in
        PaymentService(formatter: try c.resolve(), clock: try c.resolve())
    }
    checkout.register { CheckoutScreen() }
        .resolvingProperties { container, screen in screen.payments = try container.resolve() }
    checkout.collaborate(with: core)

    let report = try checkout.validate()
    show("Findings of checkout.validate():")
    for finding in report.findings {
        show("  [\(finding.kind)] \(finding.description)")
    }

    let captive = report.findings(.captiveDependency)
    check(
        captive.count == 1 && captive.first?.path.map(\.type) == ["PaymentService", "PriceFormatter"],
        "one captive dependency: the singleton PaymentService holds the unique PriceFormatter")
    check(
        report.edges.contains { $0.from == "Checkout/PaymentService" && $0.to == "Core/Clock" && $0.crossesContainers },
        "the edge from Checkout's PaymentService to Core's Clock is marked as crossing containers")
    check(
        report.edges.contains { $0.from == "Checkout/CheckoutScreen" && $0.kind == .propertyHook },
        "the screen's property hook is an edge of its own kind")
    check(
        report.nodes.first { $0.id == "Checkout/PaymentService" }?.site?.file == #fileID,
        "each node knows the file and line that registered it")

    let dot = report.dot
    show("report.dot (render with `dot -Tsvg`):")
    show(dot)
    check(
        dot.contains("subgraph cluster_0") && dot.contains("label=\"Checkout\"")
            && dot.contains("subgraph cluster_1") && dot.contains("label=\"Core\""),
        "the DOT export has one cluster per container")

    // Fixing it: a long-lived formatter (or resolving one where it is used) clears the finding.
    core.register(.singleton) { PriceFormatter() }
    let fixed = try DependencyContainer(name: "Checkout 2") { container in
        container.register(.singleton) { c in
            PaymentService(formatter: try c.resolve(), clock: try c.resolve())
        }
        container.collaborate(with: core)
    }.validate()
    check(fixed.findings(.captiveDependency).isEmpty, "with a singleton formatter, no captive dependency is left")
}
