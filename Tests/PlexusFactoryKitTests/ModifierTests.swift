import PlexusFactoryKit
import Testing

private final class Studio: ManagedContainer {
    let manager = ContainerManager()
    let decorated = Tally()
    let made = Tally()

    var everyResolve: Factory<Ticket> {
        self { Ticket() }.cached.decorator { [decorated] _ in decorated.increment() }
    }
    var newOnly: Factory<Ticket> {
        self { Ticket() }.cached.decorator { [made] _, instantiated in
            if instantiated { made.increment() }
        }
    }
    var frozen: Factory<Ticket> { self { Ticket() }.cached.once() }
    var thawed: Factory<Ticket> { self { Ticket() }.cached }
}

@Suite struct ModifierTests {
    private let shop = Shop()

    @Test func decoratorRunsOnEveryResolveOfAKeptInstance() {
        let studio = Studio()
        _ = studio.everyResolve()
        _ = studio.everyResolve()
        _ = studio.everyResolve()
        #expect(studio.decorated.count == 3)
    }

    @Test func decoratorIsToldWhetherTheInstanceIsNew() {
        let studio = Studio()
        _ = studio.newOnly()
        _ = studio.newOnly()
        #expect(studio.made.count == 1)
    }

    @Test func onceKeepsAChangedScopeFromBeingUndoneByTheNextRead() {
        let studio = Studio()
        studio.frozen.scope(.unique)
        #expect(studio.frozen() !== studio.frozen())
        studio.thawed.scope(.unique)
        #expect(studio.thawed() === studio.thawed())
    }

    @Test func scopedParameterFactoryKeepsItsFirstInstanceWhateverTheArgument() {
        #expect(shop.numbered(1) === shop.numbered(2))
        #expect(shop.numbered(2).number == 1)
    }

    @Test func scopeOnParametersKeepsOnePerArgumentValue() {
        let one = shop.perNumber(1)
        #expect(shop.perNumber(1) === one)
        #expect(shop.perNumber(2) !== one)
        #expect(shop.perNumber(2).number == 2)
    }

    @Test func scopeOnParametersTellsApartArgumentsWhoseHashesCollide() {
        let one = shop.perCollidingNumber(CollidingNumber(value: 1))
        let two = shop.perCollidingNumber(CollidingNumber(value: 2))
        #expect(one !== two)
        #expect(two.number == 2)
        #expect(shop.perCollidingNumber(CollidingNumber(value: 1)) === one)
    }

    @Test func resetScopeDropsEveryArgumentsInstance() {
        let one = shop.perNumber(1)
        let two = shop.perNumber(2)
        shop.perNumber.reset(.scope)
        #expect(shop.perNumber(1) !== one)
        #expect(shop.perNumber(2) !== two)
    }

    @Test func resetRegistrationKeepsContexts() {
        shop.greeter.register { MockGreeter() }.onArg("plexus-never-passed") { EnglishGreeter() }
        shop.greeter.reset(.registration)
        #expect(shop.greeter().greeting == "hello")
        #expect(!shop.manager.isEmpty(.context))
        shop.greeter.reset(.context)
        #expect(shop.manager.isEmpty(.context))
    }

    @Test func promisedIsNilUntilRegistered() {
        shop.manager.promiseTriggersError = false
        #expect(shop.promisedGreeter() == nil)
        shop.promisedGreeter.register { MockGreeter() }
        #expect(shop.promisedGreeter()?.greeting == "mock")
    }

    @Test func parameterFactoryOverrideTakesTheArgument() {
        shop.numbered.register { Ticket(number: $0 * 10) }
        #expect(shop.numbered(4).number == 40)
    }
}
