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

private struct DeclinedError: Error {}

/// A module container's factory that throws is not "nothing registered": the promise stops the process with the
/// error (Factory's spellings cannot throw). An exit test: it runs in a child process.
@Suite struct PromiseFailureExitTests {
    @Test func aModuleFactoryThatThrowsStopsThePromiseWithItsError() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let checkout = Checkout()
            checkout.manager.promiseTriggersError = false
            let module = DependencyContainer { $0.register { () throws -> any Payments in throw DeclinedError() } }
            checkout.manager.plexus.collaborate(with: module)
            _ = checkout.payments()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("could not be made"))
        #expect(message.contains("DeclinedError"))
    }
}

private final class Counter: ManagedContainer {
    let manager = ContainerManager()
    var visits: PlexusFactoryKit.Factory<Int> { self { 1 } }
    var ticket: PlexusFactoryKit.Factory<CardPayments> { self { CardPayments() }.cached }
}

@Suite struct DeclarationSlotTests {
    @Test func aDeclarationIsATypedAccessorOfTheManagersContainer() throws {
        let counter = Counter()
        let ticket = counter.ticket()
        let kept: CardPayments = try counter.manager.plexus.resolve(tag: "Counter.ticket")
        #expect(kept === ticket)
    }

    @Test func aKeptInstanceIsStillTheAnswerOnceTheManagersContainerCollaborates() {
        // Kept reads go straight to the slot's entry in the manager's container; collaborating changes the answers
        // there, and the next read finds the slot again.
        let counter = Counter()
        let kept = counter.ticket()
        #expect(counter.ticket() === kept)
        counter.manager.plexus.collaborate(with: DependencyContainer())
        #expect(counter.ticket() === kept)
        #expect(counter.ticket() === kept)
    }

    @Test func plexusAskingADeclarationsSlotToMakeAnInstanceThrowsAndLeavesItUsable() {
        let counter = Counter()
        #expect(counter.visits() == 1)
        Plexus.withLogging(level: .none) {
            #expect(throws: (any Error).self) { try counter.manager.plexus.resolve(tag: "Counter.visits") as Int }
        }
        #expect(counter.visits() == 1)
    }
}
