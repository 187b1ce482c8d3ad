import Plexus

// Saber generates a container class per module from annotations. In Plexus a module container is a named
// DependencyContainer with a namespace of accessors: `dependsOn` is collaborate(with:), `externals` are values
// injected when the container is made, thread safety is always on.
//
// What Saber would generate for the module below, for comparison:
//
//     // @saber.container(CheckoutContainer)
//     // @saber.scope(Checkout)
//     // @saber.dependsOn(AppContainer)
//     // @saber.externals(CheckoutEnvironment)
//     protocol CheckoutContaining {}
//
//     internal class CheckoutContainer: CheckoutContaining {
//         internal let appContainer: AppContainer
//         internal let checkoutEnvironment: CheckoutEnvironment
//         private var cached_basket: Basket?
//
//         internal init(appContainer: AppContainer, checkoutEnvironment: CheckoutEnvironment) {
//             self.appContainer = appContainer
//             self.checkoutEnvironment = checkoutEnvironment
//         }
//
//         internal var basket: Basket {
//             if let cached = self.cached_basket { return cached }
//             let basket = self.makeBasket()
//             self.cached_basket = basket
//             return basket
//         }
//
//         internal var paymentSheet: PaymentSheet {
//             let paymentSheet = self.makePaymentSheet()
//             self.injectTo(paymentSheet: paymentSheet)
//             return paymentSheet
//         }
//
//         private func makeBasket() -> Basket {
//             return Basket(currency: self.checkoutEnvironment.currency)
//         }
//
//         private func makePaymentSheet() -> PaymentSheet {
//             return PaymentSheet(basket: self.basket)
//         }
//
//         private func injectTo(paymentSheet: PaymentSheet) {
//             paymentSheet.logger = self.appContainer.appLogger   // property injection
//             paymentSheet.didInject()                            // method injection
//         }
//     }

private struct CheckoutEnvironment {
    let currency: String
}
private final class AppLogger {
    private(set) var lines: [String] = []
    func log(_ line: String) { lines.append(line) }
}
private final class Basket {
    let currency: String
    init(currency: String) { self.currency = currency }
}
private final class PaymentSheet {
    let basket: Basket
    var logger: AppLogger?
    private(set) var isReady = false
    init(basket: Basket) { self.basket = basket }
    func didInject() {
        isReady = true
        logger?.log("payment sheet ready")
    }
}

extension DependencyContainer {
    fileprivate enum NamespaceCheckoutModule {}
    fileprivate typealias CheckoutModule = Namespace<NamespaceCheckoutModule>
    fileprivate var checkoutModule: CheckoutModule { namespace() }

    fileprivate var appLogger: Factory<AppLogger> { self { AppLogger() }.singleton }
}

extension DependencyContainer.CheckoutModule {
    fileprivate var basket: SingletonFactory<Basket> {
        get { resolve { Basket(currency: (try self.container.resolve() as CheckoutEnvironment).currency) } }
        set { inject(newValue) }
    }
    fileprivate var paymentSheet: Factory<PaymentSheet> {
        get {
            resolve {
                let sheet = PaymentSheet(basket: self.basket())  // initializer injection
                sheet.logger = self.container.appLogger()  // property injection
                sheet.didInject()  // method injection
                return sheet
            }
        }
        set { inject(newValue) }
    }
}

/// Makes the Checkout module container: its externals are injected, and it depends on the app container.
private func makeCheckoutContainer(environment: CheckoutEnvironment, app: DependencyContainer) -> DependencyContainer {
    let checkout = DependencyContainer(name: "Checkout") { $0.inject(environment) }
    checkout.collaborate(with: app)
    return checkout
}

@MainActor
func saberModules() throws {
    let app = DependencyContainer(name: "App")
    let checkout = makeCheckoutContainer(environment: CheckoutEnvironment(currency: "GBP"), app: app)
    app.appLogger.replace { AppLogger() }  // an override in the app container, seen by Checkout (dependsOn)

    let sheet = checkout.checkoutModule.paymentSheet()
    check(checkout.name == "Checkout", "the module container is named \"Checkout\"")
    check(sheet.basket.currency == "GBP", "the basket got the injected external CheckoutEnvironment")
    check(sheet.basket === checkout.checkoutModule.basket(), "basket is one per Checkout container")
    check(sheet.isReady && sheet.logger === app.appLogger(), "property and method injection used the app's logger")
    check(app.appLogger().lines == ["payment sheet ready"], "the app's logger saw it")

    let missing = caught { try app.checkoutModule.basket.resolve() }
    check(
        missing is ResolutionError,
        "dependsOn is directional: the app container has no CheckoutEnvironment, so its basket cannot be made")
}
