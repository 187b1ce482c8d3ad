import Plexus

// The Dip-style side of chapter 23: a payments module with its own container. A file that imports both Plexus and
// PlexusFactoryKit names `Factory` and `Injected` with their module (`PlexusFactoryKit.Factory`, `Plexus.Injected`);
// keeping each style in its own file needs neither.

/// Card payments, which the payments module provides.
protocol CardPayments: AnyObject {
    var provider: String { get }
}

/// The payments module's implementation.
final class StripeCardPayments: CardPayments, Sendable {
    let provider = "stripe"
}

/// The payments module, written with Dip's `register`.
struct PaymentsModule {
    let container = DependencyContainer(name: "Payments")

    /// What the module itself resolves for `CardPayments`.
    func resolvedCardPayments() -> CardPayments? {
        try? container.resolve() as CardPayments
    }
}

/// Makes the payments module and lets `container` (a Factory container's Plexus container) resolve from it.
func linkCardPaymentsModule(to container: DependencyContainer) -> PaymentsModule {
    let module = PaymentsModule()
    module.container.register(.singleton) { StripeCardPayments() as CardPayments }
    container.collaborate(with: module.container)
    return module
}
