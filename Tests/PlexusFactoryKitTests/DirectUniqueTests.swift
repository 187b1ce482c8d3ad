import Plexus
import PlexusFactoryKit
import Testing

// A unique declaration read before, with nothing but its factory to see the read, has its factory called by the
// product itself. Each test reads a declaration until that is so, changes what the container would answer, and
// checks the next read sees the change.

private final class Stall: ManagedContainer {
    let manager = ContainerManager()
    var ticket: PlexusFactoryKit.Factory<Ticket> { self { Ticket(number: 1) } }
    var booth: PlexusFactoryKit.Factory<Pair> { self { Pair(left: self.ticket(), right: self.ticket()) } }
    var countdown: PlexusFactoryKit.ParameterFactory<Int, Ticket> {
        self { number in number > 0 ? self.countdown(number - 1) : Ticket(number: number) }
    }
}

/// A unique declaration built from two `.graph` ones.
private final class Workshop: ManagedContainer {
    let manager = ContainerManager()
    var part: PlexusFactoryKit.Factory<Ticket> { self { Ticket() }.graph }
    var pair: PlexusFactoryKit.Factory<Pair> { self { Pair(left: self.part(), right: self.part()) } }
}

/// Counts the `Resolvable` callbacks a container makes on it.
private final class Gauge: Resolvable {
    let callbacks = Tally()
    func didResolveDependencies() { callbacks.increment() }
}

private final class Dashboard: ManagedContainer {
    let manager = ContainerManager()
    var gauge: PlexusFactoryKit.Factory<Gauge> { self { Gauge() } }
}

/// Reads `stall.ticket` enough times for its record to allow making it directly.
private func readOften(_ stall: Stall) {
    for _ in 0..<3 { #expect(stall.ticket().number == 1) }
}

@Suite struct DirectUniqueTests {
    @Test func aModuleContainerAddedAfterReadsAnswersTheNextRead() {
        let stall = Stall()
        readOften(stall)
        let module = DependencyContainer { $0.register(tag: "Stall.ticket") { Ticket(number: 2) } }
        stall.manager.plexus.collaborate(with: module)
        #expect(stall.ticket().number == 2)
    }

    @Test func aDefinitionRegisteredUnderTheKeyAfterReadsAnswersTheNextRead() {
        let stall = Stall()
        readOften(stall)
        stall.manager.plexus.register(tag: "Stall.ticket") { Ticket(number: 3) }
        #expect(stall.ticket().number == 3)
    }

    @Test func anOverrideAfterReadsIsMadeOnTheNextRead() {
        let stall = Stall()
        readOften(stall)
        stall.ticket.register { Ticket(number: 4) }
        #expect(stall.ticket().number == 4)
        stall.ticket.reset(.registration)
        #expect(stall.ticket().number == 1)
    }

    @Test func aDecoratorAddedAfterReadsSeesTheNextRead() {
        let stall = Stall()
        readOften(stall)
        let seen = Tally()
        stall.ticket.decorator { _ in seen.increment() }
        _ = stall.ticket()
        #expect(seen.count == 1)
    }

    @Test func graphDeclarationsShareOneInstanceInsideEachRead() {
        let workshop = Workshop()
        var lefts: [Ticket] = []
        for _ in 0..<3 {
            let pair = workshop.pair()
            #expect(pair.left === pair.right)
            lefts.append(pair.left)
        }
        #expect(lefts[1] !== lefts[2])
    }

    @Test func instancesGetNoResolvableCallbackOnAnyRead() {
        let dashboard = Dashboard()
        for _ in 0..<3 { #expect(dashboard.gauge().callbacks.count == 0) }
    }

    @Test func aDecoratorAddedInPlexusAfterReadsSeesTheNextRead() {
        let stall = Stall()
        readOften(stall)
        stall.manager.plexus.decorate(Ticket.self, tag: "Stall.ticket") { _ in Ticket(number: 9) }
        #expect(stall.ticket().number == 9)
    }

    @Test func validateAfterReadsSeesWhatTheFactoryResolves() throws {
        let stall = Stall()
        for _ in 0..<3 { _ = stall.booth() }
        let report = stall.validate(roots: \.booth)
        let pair = try #require(report.nodes(of: Pair.self).first)
        #expect(pair.dependenciesKnown)
        #expect(report.edges.contains { $0.from == pair.id })
    }
}

/// A declaration whose factory calls itself once `loops` is set.
private final class Carousel: ManagedContainer {
    let manager = ContainerManager()
    let loops = Tally()
    var ride: PlexusFactoryKit.Factory<Ticket> {
        self { self.loops.count > 0 ? self.ride() : Ticket() }
    }
}

/// A cycle through a unique declaration read before stops the process with its path, as on a first read. An exit
/// test: it runs in a child process.
@Suite struct DirectUniqueCycleExitTests {
    @Test func aDeclarationCallingItselfAfterReadsStopsNamingThePath() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stall = Stall()
            for _ in 0..<3 { _ = stall.countdown(0) }
            _ = stall.countdown(2)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency: Stall.countdown -> Stall.countdown"))
    }

    @Test func withTheCheckOffADeclarationComingBackToItselfStillStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let carousel = Carousel()
            carousel.manager.circularDependencyTesting = false
            for _ in 0..<3 { _ = carousel.ride() }
            carousel.loops.increment()
            _ = carousel.ride()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency"), "\(message.suffix(300))")
    }
}
