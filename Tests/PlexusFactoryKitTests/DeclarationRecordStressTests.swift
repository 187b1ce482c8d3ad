import Dispatch
import PlexusFactoryKit
import Testing

/// Twenty cached declarations: more records than the record table's first buckets hold, so that it grows.
private final class Depot: ManagedContainer {
    let manager = ContainerManager()
    var d0: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d1: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d2: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d3: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d4: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d5: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d6: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d7: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d8: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d9: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d10: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d11: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d12: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d13: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d14: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d15: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d16: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d17: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d18: Factory<Ticket> { self { Ticket(number: 0) }.cached }
    var d19: Factory<Ticket> { self { Ticket(number: 0) }.cached }

    var all: [Factory<Ticket>] {
        [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16, d17, d18, d19]
    }
}

@Suite struct DeclarationRecordStressTests {
    /// Kept instances are read without the lock while one thread overrides a declaration, resets kept instances,
    /// adds decorators, and makes and drops whole containers (their records come and go, and the table grows): a
    /// reader never sees an older override after a newer one, nor a ticket no factory made, and the writer always
    /// reads back the override it has just registered. CI runs it under ThreadSanitizer and AddressSanitizer too.
    @Test func readsWithoutTheLockWhileDeclarationsChange() {
        let depot = Depot()
        let versions = 300
        let wrong = Tally()
        let stale = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            guard thread == 0 else {
                var newest = 0
                for _ in 0..<versions {
                    let seen = depot.d0().number
                    if seen < newest { stale.increment() }
                    newest = max(newest, seen)
                    let others = depot.all.dropFirst()
                    for declaration in others where declaration().number != 0 { wrong.increment() }
                }
                return
            }
            for version in 1...versions {
                depot.d0.register { Ticket(number: version) }
                if depot.d0().number != version { stale.increment() }
                if version % 10 == 0 { depot.manager.reset(options: .scope) }
                if version % 7 == 0 { depot.d1.decorator { _ in } }
                let passing = Depot()
                for declaration in passing.all where declaration().number != 0 { wrong.increment() }
            }
        }
        #expect(wrong.count == 0)
        #expect(stale.count == 0)
    }
}
