import Plexus
import PlexusTesting
import Testing

private final class Egg: Sendable {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}
private final class Chicken: Sendable {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

extension DependencyContainer {
    fileprivate var egg: Factory<Egg> { self { Egg(chicken: self.chicken()) } }
    fileprivate var chicken: Factory<Chicken> { self { Chicken(egg: self.egg()) }.singleton }
}

/// SPEC §18: `callAsFunction()` does not throw; a cycle stops the process, in release builds too, naming the path.
/// Each test runs in a child process (an exit test).
@Suite(.silencingPlexusLogs) struct AccessorCycleExitTests {
    @Test func callingAnAccessorInACycleStopsTheProcessNamingThePath() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            _ = DependencyContainer().egg()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("circular dependency between typed accessors"))
        #expect(message.contains("DependencyContainer.egg"))
        #expect(message.contains("DependencyContainer.chicken"))
    }

}
