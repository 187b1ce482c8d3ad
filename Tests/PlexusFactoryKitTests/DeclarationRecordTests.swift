import PlexusFactoryKit
import Testing

// A read of a kept instance, or of a scope modifier already applied, takes no lock: each test reads a declaration
// until it is kept, changes something that read must see, and reads again.

private final class Kiosk: ManagedContainer {
    let manager = ContainerManager()
    let made = Tally()
    var ticket: Factory<Ticket> { self { Ticket(number: self.made.increment()) }.cached }
    var plain: Factory<Ticket> { self { Ticket(number: self.made.increment()) } }
}

private final class SelfRegisteringKiosk: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    let registered = Tally()
    var ticket: Factory<Ticket> { self { Ticket() }.cached }

    func autoRegister() {
        let number = registered.increment()
        ticket.register { Ticket(number: 100 + number) }
    }
}

@Suite struct DeclarationRecordTests {
    private let kiosk = Kiosk()

    @Test func aDecoratorAddedAfterKeptReadsSeesTheNextRead() {
        let kept = kiosk.ticket()
        #expect(kiosk.ticket() === kept)
        let seen = Tally()
        kiosk.ticket.decorator { _ in seen.increment() }
        #expect(kiosk.ticket() === kept)
        #expect(seen.count == 1)
    }

    @Test func aContainerDecoratorAddedAfterKeptReadsSeesTheNextRead() {
        _ = kiosk.ticket()
        _ = kiosk.ticket()
        let seen = Tally()
        kiosk.decorator { _ in seen.increment() }
        _ = kiosk.ticket()
        #expect(seen.count == 1)
    }

    @Test func anOverrideAfterKeptReadsIsMadeOnTheNextRead() {
        _ = kiosk.ticket()
        _ = kiosk.ticket()
        kiosk.ticket.register { Ticket(number: -1) }
        #expect(kiosk.ticket().number == -1)
    }

    @Test func aScopeChangedByAnotherModifierAfterKeptReadsApplies() {
        let kept = kiosk.ticket()
        #expect(kiosk.ticket() === kept)
        let unique = kiosk.ticket.unique
        #expect(unique() !== unique())
    }

    // A scope property (`.cached`, …) is applied by the next use of the value it returns; `scope(_:)` at once.

    @Test func aScopePropertyAppliesThroughAnOverrideMadeWithIt() {
        kiosk.plain.cached.register { Ticket(number: -1) }
        let kept = kiosk.plain()
        #expect(kept.number == -1)
        #expect(kiosk.plain() === kept)
    }

    @Test func aScopePropertyAppliesThroughOnce() {
        kiosk.plain.cached.once()
        let kept = kiosk.plain()
        #expect(kiosk.plain() === kept)
        #expect(kiosk.plain.unique() === kept)
    }

    @Test func aScopeSetAsAStatementAppliesAtOnce() {
        #expect(kiosk.plain() !== kiosk.plain())
        kiosk.plain.scope(.cached)
        let kept = kiosk.plain()
        #expect(kiosk.plain() === kept)
    }

    @Test func aDefaultScopeSetAfterReadsApplies() {
        #expect(kiosk.plain() !== kiosk.plain())
        kiosk.manager.defaultScope = .cached
        let kept = kiosk.plain()
        #expect(kiosk.plain() === kept)
    }

    @Test func aFullResetRunsAutoRegistrationAgainOnTheNextRead() {
        let container = SelfRegisteringKiosk()
        #expect(container.ticket().number == 101)
        #expect(container.ticket().number == 101)
        container.manager.reset()
        #expect(container.ticket().number == 102)
        #expect(container.registered.count == 2)
    }

    @Test func twoContainersKeepTheirOwnInstances() {
        let other = Kiosk()
        let kept = kiosk.ticket()
        #expect(kiosk.ticket() === kept)
        #expect(other.ticket() !== kept)
        #expect(other.ticket() === other.ticket())
    }

    @Test func aContainerReleasedForgetsItsRecords() {
        var released: Kiosk? = Kiosk()
        weak let store = released?.manager.plexus
        let old = released?.ticket()
        #expect(released?.ticket() === old)
        released = nil
        // The records of a released container are dropped with it: they kept its store alive.
        #expect(store == nil)
        // A container made afterwards (possibly at the same address) reads nothing the released one kept.
        let next = Kiosk()
        #expect(next.ticket() !== old)
    }
}
