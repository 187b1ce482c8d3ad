import Plexus
import Testing

@Suite struct SmokeTests {
    @Test func resolves() throws {
        let container = DependencyContainer()
        container.register { 42 }
        #expect(try container.resolve() as Int == 42)
    }
}
