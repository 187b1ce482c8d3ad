import PlexusFactoryKit
import Testing

private final class Hen {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

private final class Egg {
    let hen: Hen
    init(hen: Hen) { self.hen = hen }
}

private final class Farm: ManagedContainer {
    let manager = ContainerManager()
    var hen: Factory<Hen> { self { Hen(egg: self.egg()) } }
    var egg: Factory<Egg> { self { Egg(hen: self.hen()) }.cached }
}

/// A cycle cannot be thrown from Factory's spellings: it stops the process, naming the path, in every build.
/// Each test runs in a child process (an exit test).
@Suite struct CycleExitTests {
    @Test func cycleStopsTheProcessNamingThePath() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Farm().hen()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency: Farm.hen -> Farm.egg -> Farm.hen"))
    }
}
