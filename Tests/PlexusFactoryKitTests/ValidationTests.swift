import Plexus
import PlexusFactoryKit
import Testing

private final class Ledger {}
private final class Till {
    let ledger: Ledger
    init(ledger: Ledger) { self.ledger = ledger }
}
private final class Receipt {
    let till: Till
    init(till: Till) { self.till = till }
}

private final class Bakery: ManagedContainer {
    let manager = ContainerManager()
    var ledger: PlexusFactoryKit.Factory<Ledger> { self { Ledger() } }
    var till: PlexusFactoryKit.Factory<Till> { self { Till(ledger: self.ledger()) }.cached }
    var receipt: PlexusFactoryKit.ParameterFactory<Int, Receipt> { self { _ in Receipt(till: self.till()) } }
    var unrelated: PlexusFactoryKit.Factory<Int> { self { 42 } }
}

@Suite struct ValidationTests {
    @Test func reportShowsWhatTheRootsResolveAndACaptiveDependency() throws {
        let bakery = Bakery()
        let report = bakery.validate(roots: \.till)
        let till = try #require(report.nodes(of: Till.self).first)
        let ledger = try #require(report.nodes(of: Ledger.self).first)
        #expect(report.edges.contains { $0.from == till.id && $0.to == ledger.id })
        let captive = report.findings(.captiveDependency)
        #expect(captive.count == 1)
        #expect(captive.first?.nodes == [till.id, ledger.id])
        #expect(report.nodes(of: Int.self).isEmpty)
    }

    @Test func declarationWithAnArgumentIsBuiltWithTheArgumentsGiven() throws {
        let bakery = Bakery()
        #expect(bakery.validate(roots: \.receipt, arguments: [7]).nodes(of: Receipt.self).count == 1)
    }

    @Test func validatingLeavesTheContainerAsItWas() {
        let bakery = Bakery()
        let till = bakery.till()
        _ = bakery.validate(roots: \.till)
        #expect(bakery.till() === till)
    }
}
