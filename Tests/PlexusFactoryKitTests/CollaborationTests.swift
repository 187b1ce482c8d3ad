import Plexus
import PlexusFactoryKit
import Testing

private protocol Payments: AnyObject {}
private final class CardPayments: Payments {}

private final class Checkout: ManagedContainer {
    let manager = ContainerManager()
    var payments: PlexusFactoryKit.Factory<(any Payments)?> { promised() }
}

@Suite struct CollaborationTests {
    @Test func promisedDeclarationIsAnsweredByACollaboratingModuleContainer() {
        let checkout = Checkout()
        checkout.manager.promiseTriggersError = false
        #expect(checkout.payments() == nil)
        let module = DependencyContainer { $0.register(.singleton) { CardPayments() as any Payments } }
        checkout.manager.plexus.collaborate(with: module)
        let payments = checkout.payments()
        #expect(payments is CardPayments)
        #expect(checkout.payments() === payments)
    }

    @Test func registrationBeatsTheModuleContainer() {
        let checkout = Checkout()
        let module = DependencyContainer { $0.register { CardPayments() as any Payments } }
        checkout.manager.plexus.collaborate(with: module)
        let local = CardPayments()
        checkout.payments.register { local }
        #expect(checkout.payments() === local)
    }
}
