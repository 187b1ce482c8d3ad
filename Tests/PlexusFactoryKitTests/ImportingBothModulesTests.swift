import Plexus
import PlexusFactoryKit
import PlexusFactoryTesting
import Testing

// A file that imports both `Plexus` and `PlexusFactoryKit` names the three types both modules declare
// (`Factory`, `ParameterFactory`, `Injected`) by module; every other name needs no prefix.

private final class Clock {}
private final class Ledger {}

extension PlexusFactoryKit.Container {
    fileprivate var clock: PlexusFactoryKit.Factory<Clock> { self { Clock() }.cached }
    fileprivate var ledger: PlexusFactoryKit.ParameterFactory<Int, Ledger> { self { _ in Ledger() } }
}

/// Uses both wrappers: Factory's resolves from the shared container when made, Dip's is filled by a
/// `DependencyContainer` that resolves its owner.
private final class Report {
    @PlexusFactoryKit.Injected(\.clock) var clock: Clock
    @Plexus.Injected var ledger: Ledger?
}

@Suite(.container) struct ImportingBothModulesTests {
    @Test func bothInjectedWrappersWorkSideBySide() throws {
        let dip = DependencyContainer()
        dip.register { Ledger() }
        dip.register { Report() }
        let report: Report = try dip.resolve()
        #expect(report.clock === PlexusFactoryKit.Container.shared.clock())
        #expect(report.ledger != nil)
    }

    @Test func parameterFactoryIsNamedByModule() {
        let ledger: PlexusFactoryKit.ParameterFactory<Int, Ledger> = PlexusFactoryKit.Container.shared.ledger
        #expect(ledger(1) !== ledger(1))
    }
}
