import PlexusFactoryKit
import Testing

private final class Catalog: SharedContainer, AutoRegistering {
    @TaskLocal static var shared = Catalog()
    let manager = ContainerManager()
    let registrations = Tally()

    var greeter: Factory<any Greeter> { self { EnglishGreeter() } }

    func autoRegister() {
        registrations.increment()
        greeter.register { MockGreeter() }
    }
}

@Suite struct ContainerTests {
    private let shop = Shop()

    @Test func declarationResolvesItsOwnFactory() {
        #expect(shop.greeter().greeting == "hello")
    }

    @Test func registrationReplacesTheFactoryUntilReset() {
        shop.greeter.register { MockGreeter() }
        #expect(shop.greeter().greeting == "mock")
        shop.greeter.reset()
        #expect(shop.greeter().greeting == "hello")
    }

    @Test func shortRegistrationReplacesTheFactory() {
        shop.greeter { MockGreeter() }
        #expect(shop.greeter().greeting == "mock")
    }

    @Test func registerReturnsTheDeclarationForMoreModifiers() {
        let first = shop.ticket.register { Ticket(number: 7) }.cached()
        #expect(first.number == 7)
        #expect(shop.ticket() === first)
    }

    @Test func pushAndPopRestoreRegistrationsAndInstances() {
        let kept = shop.cachedTicket()
        shop.manager.push()
        shop.greeter.register { MockGreeter() }
        shop.cachedTicket.reset(.scope)
        #expect(shop.greeter().greeting == "mock")
        #expect(shop.cachedTicket() !== kept)
        shop.manager.pop()
        #expect(shop.greeter().greeting == "hello")
        #expect(shop.cachedTicket() === kept)
    }

    @Test func isEmptyReportsEachKindOfState() {
        #expect(shop.manager.isEmpty(.all))
        shop.greeter.register { MockGreeter() }
        #expect(!shop.manager.isEmpty(.registration))
        #expect(shop.manager.isEmpty(.scope))
        _ = shop.cachedTicket()
        #expect(!shop.manager.isEmpty(.scope))
        shop.manager.reset(options: .registration)
        #expect(shop.manager.isEmpty(.registration))
        #expect(!shop.manager.isEmpty(.scope))
        shop.manager.reset()
        #expect(shop.manager.isEmpty(.all))
    }

    @Test func autoRegistrationRunsOnFirstUseAndAgainAfterAFullReset() {
        let catalog = Catalog()
        #expect(catalog.greeter().greeting == "mock")
        #expect(catalog.registrations.count == 1)
        catalog.manager.reset()
        #expect(catalog.greeter().greeting == "mock")
        #expect(catalog.registrations.count == 2)
    }

    @Test func containerDecoratorSeesEveryResolve() {
        let seen = Tally()
        shop.decorator { _ in seen.increment() }
        _ = shop.cachedTicket()
        _ = shop.cachedTicket()
        #expect(seen.count == 2)
    }

    @Test func transformClosureChangesTheSharedContainer() async {
        await Catalog.$shared.withValue(Catalog()) {
            Catalog.shared { $0.greeter.register { EnglishGreeter() } }
            #expect(Catalog.shared.greeter().greeting == "hello")
            await Catalog.shared { @MainActor container async in container.greeter.register { MockGreeter() } }
            #expect(Catalog.shared.greeter().greeting == "mock")
        }
    }

    @Test func resolvingContainerRegistersAndResolvesByType() {
        let registry = TypeRegistry()
        #expect(registry.resolve(Ticket.self) == nil)
        registry.register { Ticket(number: 3) }.scope(.cached)
        let first: Ticket? = registry.resolve()
        #expect(first?.number == 3)
        #expect(registry.resolve(Ticket.self) === first)
        #expect(registry.factory(Ticket.self) != nil)
    }
}

private final class TypeRegistry: Resolving {
    let manager = ContainerManager()
}
