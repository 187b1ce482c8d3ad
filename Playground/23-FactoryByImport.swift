import Dispatch
import Foundation
import PlexusFactoryKit

// Factory code that runs on Plexus because its import names `PlexusFactoryKit`: declarations on `Container` and on a
// `SharedContainer` of a module's own, Factory's five scopes, `register` and `reset` (of a singleton through another
// container too), a test context, property wrappers and a ParameterFactory. Then what Factory lacks: Plexus's graph report of the declarations, and a
// `promised()` declaration answered by a Dip-style module container.

private protocol Salutation {
    func greet(_ name: String) -> String
}
private struct FriendlySalutation: Salutation {
    func greet(_ name: String) -> String { "Hello, \(name)" }
}
private struct FixedSalutation: Salutation {
    func greet(_ name: String) -> String { "Hello, test" }
}
private final class Keychain {}
private final class Telemetry {
    private(set) var sent: [String] = []
    func send(_ event: String) { sent.append(event) }
}
private final class Theme {}
private final class Layout {}
private final class Screen {
    let top: Layout
    let bottom: Layout
    init(top: Layout, bottom: Layout) {
        self.top = top
        self.bottom = bottom
    }
}
private struct Invoice {
    let number: Int
}
private final class Printer {
    let theme: Theme
    init(theme: Theme) { self.theme = theme }
}
/// Kept by the shop; its `deinit` hands its teardown to another thread that resolves a declaration, and waits for it
/// (as a service that flushes through a queue might): it can finish only if whatever releases it holds no lock a
/// resolve needs. It signals `finished` when it did.
private final class Session {
    let shop: ShopContainer
    let finished: DispatchSemaphore
    init(shop: ShopContainer, finished: DispatchSemaphore) {
        (self.shop, self.finished) = (shop, finished)
    }
    deinit {
        let resolved = DispatchSemaphore(value: 0)
        let shop = self.shop
        Thread {
            _ = shop.invoice(1)
            resolved.signal()
        }.start()
        if resolved.wait(timeout: .now() + 5) == .success { finished.signal() }
    }
}

extension Container {
    fileprivate var salutation: Factory<Salutation> {
        self { FriendlySalutation() }.onTest { FixedSalutation() }
    }
}

// A module's own container, as Factory's documentation has one per module.
private final class ShopContainer: SharedContainer {
    static let shared = ShopContainer()
    let manager = ContainerManager()
}

extension ShopContainer {
    fileprivate var keychain: Factory<Keychain> { self { Keychain() }.singleton }
    fileprivate var telemetry: Factory<Telemetry> { self { Telemetry() }.cached }
    fileprivate var theme: Factory<Theme> { self { Theme() }.shared }
    fileprivate var layout: Factory<Layout> { self { Layout() }.graph }
    fileprivate var screen: Factory<Screen> { self { Screen(top: self.layout(), bottom: self.layout()) } }
    fileprivate var invoice: ParameterFactory<Int, Invoice> { self { Invoice(number: $0) } }
    fileprivate var printer: Factory<Printer> { self { Printer(theme: self.theme()) }.singleton }
    fileprivate var cardPayments: Factory<CardPayments?> { promised() }
    fileprivate var session: ParameterFactory<DispatchSemaphore, Session> {
        self { Session(shop: self, finished: $0) }.cached
    }
}

private final class CheckoutModel {
    @Injected(\.salutation) var salutation
    @Injected(\ShopContainer.telemetry) var telemetry
    @LazyInjected(\ShopContainer.keychain) var keychain
}

@MainActor
func factoryByImport() throws {
    let shop = ShopContainer.shared

    check(shop.keychain() === shop.keychain(), ".singleton: one Keychain")
    let telemetry = shop.telemetry()
    check(shop.telemetry() === telemetry, ".cached: the Telemetry is kept…")
    shop.manager.reset(scope: .cached)
    check(shop.telemetry() !== telemetry, "…until its scope is reset (Plexus also lets memory pressure release it)")
    let sessionEnded = DispatchSemaphore(value: 0)
    _ = shop.session(sessionEnded)
    shop.manager.reset(scope: .cached)
    check(
        sessionEnded.wait(timeout: .now()) == .success,
        "A reset releases what it drops after Factory's lock: a deinit may wait for a thread that resolves")

    weak var released: Theme?
    do {
        let theme = shop.theme()
        released = theme
        check(shop.theme() === theme, ".shared: the same Theme while someone holds it…")
    }
    check(released == nil, "…and nothing keeps it after: Factory's .shared holds it weakly")

    let screen = shop.screen()
    check(screen.top === screen.bottom, ".graph: one Layout for everything one resolution makes…")
    check(shop.screen().top !== screen.top, "…and a new one for the next resolution")

    check(shop.invoice(42).number == 42, "ParameterFactory: shop.invoice(42)")
    shop.invoice.register { Invoice(number: $0 + 1000) }
    check(shop.invoice(7).number == 1007, "register { … } overrides the declaration")
    shop.invoice.reset()
    check(shop.invoice(7).number == 7, "reset() brings back the declared factory")

    let model = CheckoutModel()
    check(model.salutation.greet("Ada") == "Hello, Ada", "@Injected(\\.salutation) reads Container.shared")
    model.telemetry.send("checkout opened")
    check(shop.telemetry().sent == ["checkout opened"], "@Injected(\\ShopContainer.telemetry) got the cached one")
    check(model.$keychain.resolvedOrNil() == nil, "@LazyInjected resolves nothing until it is read…")
    check(model.keychain === shop.keychain(), "…and then the singleton Keychain")

    // Factory's singletons are the process's, not a container's: a test's own ShopContainer reaches the one `shop`
    // resolved.
    let testShop = ShopContainer()
    let mock = Keychain()
    testShop.keychain.register { mock }
    check(
        testShop.keychain() === mock && shop.keychain() === mock,
        "A .singleton overridden through another ShopContainer is the override in every container…")
    testShop.keychain.reset()
    check(shop.keychain() !== mock, "…and a reset there releases it everywhere: shop's next resolve makes a new one")

    if FactoryContext.current.isDebug {
        let isTest = FactoryContext.current.isTest
        FactoryContext.current.isTest = true
        check(Container.shared.salutation().greet("Ada") == "Hello, test", ".onTest { … } answers while tests run")
        FactoryContext.current.isTest = isTest
        check(Container.shared.salutation().greet("Ada") == "Hello, Ada", "…and the declaration otherwise")
    } else {
        show("Release build: Factory registers .onTest, .onPreview and .onDebug alternatives in debug builds only.")
    }

    // Every declaration is a typed accessor of its manager's Plexus container, so Plexus's graph report sees them.
    let report = shop.validate(roots: \.screen, \.printer)
    check(report.nodes(of: Layout.self).count == 1, "validate(roots:) walks what the roots resolve: Screen's Layout")
    check(
        report.findings(.captiveDependency).first?.nodes.last == report.nodes(of: Theme.self).first?.id,
        "…and finds the singleton Printer keeping the weakly kept (.shared) Theme alive: a captive dependency")

    let payments = linkCardPaymentsModule(to: shop.manager.plexus)
    check(
        shop.cardPayments()?.provider == "stripe",
        "promised() is answered by a Dip-style module container the Factory container collaborates with")
    check(
        shop.cardPayments() === payments.resolvedCardPayments(),
        "…the module's singleton, kept by the module that registers it")
    show(
        """
        A declaration that comes back to itself stops the process with its path (ShopContainer.a -> \
        ShopContainer.b -> ShopContainer.a), in release builds too: Factory checks in debug builds only.
        """)
}
