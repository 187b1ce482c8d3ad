import Plexus
import PlexusFactoryKit

// Factory 3 code, unchanged but for its import: `import PlexusFactoryKit` instead of `import FactoryKit`. This file
// also imports Plexus (for a Dip-style module container), so the three names both modules declare are written with
// their module: `PlexusFactoryKit.Factory`, `PlexusFactoryKit.ParameterFactory`, `@PlexusFactoryKit.Injected`.

private protocol Analytics: AnyObject {
    var name: String { get }
}
private final class ConsoleAnalytics: Analytics {
    let name = "console"
}
private final class SilentAnalytics: Analytics {
    let name = "silent"
}
private final class Cart {}
private final class Detail {
    let id: Int
    init(id: Int) { self.id = id }
}
private protocol Payments: AnyObject {}
private final class CardPayments: Payments {}

/// An app's container, as Factory's documentation writes one.
private final class AppContainer: SharedContainer {
    @TaskLocal static var shared = AppContainer()
    let manager = ContainerManager()

    var analytics: PlexusFactoryKit.Factory<any Analytics> { self { ConsoleAnalytics() }.cached }
    var cart: PlexusFactoryKit.Factory<Cart> { self { Cart() }.shared }
    var detail: PlexusFactoryKit.ParameterFactory<Int, Detail> { self { Detail(id: $0) } }
    var payments: PlexusFactoryKit.Factory<(any Payments)?> { promised() }
}

private final class CheckoutModel {
    @PlexusFactoryKit.Injected(\AppContainer.analytics) var analytics
    @LazyInjected(\AppContainer.cart) var cart
}

@MainActor
func factoryByImport() {
    AppContainer.$shared.withValue(AppContainer()) {
        let container = AppContainer.shared
        let model = CheckoutModel()
        check(model.analytics === container.analytics(), "@Injected(\\.analytics) resolves a `.cached` declaration")
        check(model.$cart.resolvedOrNil() == nil, "@LazyInjected waits for its first read")

        var cart: Cart? = container.cart()
        check(container.cart() === cart, "Factory's `.shared` keeps the instance while someone holds it…")
        weak let first = cart
        cart = nil
        let next = container.cart()
        check(first == nil && container.cart() === next, "…and makes a new one once it is released")

        container.analytics.register { SilentAnalytics() }
        check(container.analytics().name == "silent", "register { } overrides a declaration until reset()")
        container.analytics.reset()
        check(container.detail(7).id == 7, "a ParameterFactory takes its argument: container.detail(7)")

        container.manager.promiseTriggersError = false
        check(container.payments() == nil, "a promised() declaration is nil until something provides it")
        let paymentsModule = DependencyContainer(name: "Payments") { $0.register { CardPayments() as any Payments } }
        container.manager.plexus.collaborate(with: paymentsModule)
        check(
            container.payments() is CardPayments,
            "…and a Dip-style module container the manager's plexus collaborates with can provide it")
    }
}
