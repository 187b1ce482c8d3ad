import Dispatch
import PlexusFactoryKit
import Testing

private final class Office: ManagedContainer {
    let manager = ContainerManager()
    var badge: Factory<Ticket> { self { Ticket() }.singleton }
    var visit: Factory<Ticket> { self { Ticket() }.scope(.visit) }
    var freshEachTime: Factory<Ticket> { self { Ticket() }.cached.timeToLive(0) }
    var dayPass: Factory<Ticket> { self { Ticket() }.singleton.timeToLive(0) }
    var pass: ParameterFactory<Int, Ticket> { self { Ticket(number: $0) }.scopeOnParameters.singleton }
    var guestPass: ParameterFactory<Guest, Ticket> { self { Ticket(number: $0.seat) }.scopeOnParameters.singleton }
}

private final class Warehouse: ManagedContainer {
    let manager = ContainerManager()
    // The same declaration names and types as `Office`'s: a singleton is one per process, whatever container.
    var badge: Factory<Ticket> { self { Ticket() }.singleton }
    var dayPass: Factory<Ticket> { self { Ticket() }.singleton }
    var guestPass: ParameterFactory<Guest, Ticket> { self { Ticket(number: $0.seat) }.scopeOnParameters.singleton }
}

/// An argument whose release a test can see.
private final class Guest: Hashable, Sendable {
    let seat: Int
    init(seat: Int) { self.seat = seat }
    static func == (lhs: Guest, rhs: Guest) -> Bool { lhs.seat == rhs.seat }
    func hash(into hasher: inout Hasher) { hasher.combine(seat) }
}

/// The ways a singleton a container resolved is released.
enum SingletonRelease: CaseIterable {
    /// `reset()` of the declaration, in the container that resolved it.
    case declaration
    /// `reset(.scope)` of the declaration, in the container that resolved it.
    case declarationScope
    /// `reset()` of the declaration, in another container that never resolved it.
    case declarationElsewhere
    /// `register { }` of an override, in the container that resolved it.
    case override
    /// `Scope.singleton.reset()`.
    case scope
}

extension Scope {
    fileprivate static let visit = Cached()
}

@Suite struct ScopeTests {
    private let shop = Shop()

    @Test func uniqueMakesANewInstanceEachTime() {
        #expect(shop.ticket() !== shop.ticket())
    }

    @Test func cachedKeepsOneInstanceUntilTheScopeIsReset() {
        let first = shop.cachedTicket()
        #expect(shop.cachedTicket() === first)
        shop.manager.reset(options: .scope)
        #expect(shop.cachedTicket() !== first)
    }

    @Test func sharedKeepsTheInstanceOnlyWhileSomethingHoldsIt() {
        var held: Ticket? = shop.sharedTicket()
        let number = held?.number
        #expect(shop.sharedTicket() === held)
        held = nil
        #expect(shop.sharedTicket().number != number)
    }

    @Test func graphSharesOneInstanceWithinOneResolution() {
        let first = shop.pair()
        #expect(first.left === first.right)
        let second = shop.pair()
        #expect(second.left !== first.left)
    }

    @Test func singletonIsOnePerProcessAcrossContainerTypes() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            #expect(office.badge() === Warehouse().badge())
            #expect(Office().badge() === office.badge())
        }
    }

    @Test func containerResetLeavesSingletonsAlone() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            let badge = office.badge()
            office.manager.reset()
            #expect(office.badge() === badge)
            Scope.singleton.reset()
            #expect(office.badge() !== badge)
        }
    }

    @Test func overridingASingletonThroughAnotherContainerReplacesTheOneTheProcessKeeps() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let badge = Office().badge()
            // A test's own container, which has not resolved the badge yet: the override still reaches the
            // process's singleton, as the declaration does not belong to one container.
            let testOffice = Office()
            let mock = Ticket(number: 7)
            testOffice.badge.register { mock }
            #expect(testOffice.badge() === mock)
            #expect(Warehouse().badge() === mock)
            #expect(badge !== mock)
        }
    }

    @Test func resettingASingletonsScopeThroughAnotherContainerReleasesIt() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let badge = Office().badge()
            Office().badge.reset(.scope)
            #expect(Office().badge() !== badge)
            let next = Office().badge()
            Warehouse().badge.reset()
            #expect(Office().badge() !== next)
        }
    }

    @Test func singletonPerArgumentIsTheSameForAnArgumentWhicheverContainerAsks() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            // Each office meets the arguments in another order; the process keeps one pass per number.
            let first = Office()
            let second = Office()
            let five = first.pass(5)
            let seven = second.pass(7)
            #expect(five.number == 5)
            #expect(seven.number == 7)
            #expect(second.pass(5) === five)
            #expect(first.pass(7) === seven)
        }
    }

    @Test func overridingASingletonPerArgumentThroughAnotherContainerReplacesEveryArgumentsInstance() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let five = Office().pass(5)
            let testOffice = Office()
            testOffice.pass.register { Ticket(number: $0 * 10) }
            #expect(testOffice.pass(5) !== five)
            #expect(Office().pass(5).number == 50)
        }
    }

    @Test(arguments: SingletonRelease.allCases)
    func releasingASingletonPerArgumentReleasesTheArguments(_ release: SingletonRelease) {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            weak var released: Guest?
            do {
                let guest = Guest(seat: 4)
                released = guest
                #expect(office.guestPass(guest) === office.guestPass(Guest(seat: 4)))
            }
            #expect(released != nil)
            switch release {
            case .declaration: office.guestPass.reset()
            case .declarationScope: office.guestPass.reset(.scope)
            case .declarationElsewhere: Warehouse().guestPass.reset()
            case .override: office.guestPass.register { Ticket(number: $0.seat * 10) }
            case .scope: Scope.singleton.reset()
            }
            // Nothing keeps the argument of an instance that is gone: a parameter factory called with ever new
            // arguments does not grow between resets.
            #expect(released == nil)
            let guest = Guest(seat: 5)
            #expect(office.guestPass(guest) === Warehouse().guestPass(guest))
        }
    }

    @Test func aContainerScopeResetLeavesSingletonsPerArgumentAlone() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            let five = office.pass(5)
            office.manager.reset(options: .scope)
            #expect(office.pass(5) === five)
            #expect(Office().pass(5) === five)
        }
    }

    /// Threads resolve a per-argument singleton while one of them resets it every way there is, so that arguments
    /// are numbered again from 0 while others read: no thread ever gets the instance of another argument. CI runs it
    /// under ThreadSanitizer too.
    @Test func aSingletonPerArgumentIsNeverAnotherArgumentsWhileItIsReset() {
        let scope = Scope.Singleton()
        let wrong = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            Scope.$singleton.withValue(scope) {
                let office = Office()
                for round in 0..<300 {
                    if thread == 0 {
                        switch round % 3 {
                        case 0: scope.reset()
                        case 1: office.pass.reset(.scope)
                        default: office.pass.reset()
                        }
                    }
                    let argument = (round + thread) % 8
                    if office.pass(argument).number != argument { wrong.increment() }
                }
            }
        }
        #expect(wrong.count == 0)
    }

    @Test(arguments: [SingletonRelease.declaration, .declarationScope, .scope])
    func aSingletonsTimeToLiveStartsAgainAfterAReset(_ release: SingletonRelease) {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            _ = office.dayPass()
            switch release {
            case .declaration: office.dayPass.reset()
            case .declarationScope: office.dayPass.reset(.scope)
            default: Scope.singleton.reset()
            }
            // The process's instance, made by a declaration without a time to live: the first read with one starts
            // its clock, as in a scope never reset, instead of finding the clock of the instance the reset released.
            let kept = Warehouse().dayPass()
            #expect(office.dayPass() === kept)
            #expect(office.dayPass() !== kept)
        }
    }

    @Test func clonedSingletonScopeKeepsWhatItHadAndMakesItsOwnAfterwards() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let office = Office()
            let badge = office.badge()
            Scope.$singleton.withValue(Scope.singleton.clone()) {
                #expect(office.badge() === badge)
                Scope.singleton.reset()
                #expect(office.badge() !== badge)
            }
            #expect(office.badge() === badge)
        }
    }

    @Test func customScopeIsResetOnItsOwn() {
        let office = Office()
        let visit = office.visit()
        let cached = shop.cachedTicket()
        #expect(office.visit() === visit)
        office.manager.reset(scope: .visit)
        shop.manager.reset(scope: .visit)
        #expect(office.visit() !== visit)
        #expect(shop.cachedTicket() === cached)
    }

    @Test func trimmingReleasesCachedInstancesOnly() {
        let office = Office()
        let visit = office.visit()
        let cached = shop.cachedTicket()
        shop.manager.trimCaches()
        office.manager.trimCaches()
        #expect(shop.cachedTicket() !== cached)
        #expect(office.visit() === visit)
    }

    @Test func expiredInstanceIsReplaced() {
        let office = Office()
        #expect(office.freshEachTime() !== office.freshEachTime())
    }

    @Test func aSingletonsTimeToLiveRunsOutWhicheverContainerReadsItNext() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            // A time to live of zero has run out by the next read: the clock is the process's, as the instance is.
            let first = Office().dayPass()
            #expect(Office().dayPass() !== first)
        }
    }

    @Test func defaultScopeAppliesToDeclarationsThatNameNone() {
        shop.manager.defaultScope = .cached
        #expect(shop.ticket() === shop.ticket())
    }
}
