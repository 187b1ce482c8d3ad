import PlexusFactoryKit
import Testing

private final class Stage: ManagedContainer {
    let manager = ContainerManager()
    var greeter: Factory<any Greeter> { self { EnglishGreeter() } }
}

/// Serialized: the context is process-wide, and these tests change it.
@Suite(.serialized) struct ContextTests {
    private let stage = Stage()

    @Test func testContextBeatsARegistration() {
        stage.greeter.onTest { MockGreeter() }
        stage.greeter.register { EnglishGreeter() }
        #expect(stage.greeter().greeting == "mock")
    }

    @Test func testContextIsIgnoredOutsideTests() {
        stage.greeter.onTest { MockGreeter() }
        let saved = FactoryContext.current
        FactoryContext.current.isTest = false
        defer { FactoryContext.current = saved }
        #expect(stage.greeter().greeting == "hello")
    }

    @Test func runtimeArgumentSelectsItsAlternative() {
        stage.greeter.onArg("plexus-mock-greeter") { MockGreeter() }
        #expect(stage.greeter().greeting == "hello")
        FactoryContext.setArg("plexus-mock-greeter", forKey: "greeter")
        defer { FactoryContext.removeArg(forKey: "greeter") }
        #expect(stage.greeter().greeting == "mock")
    }

    @Test func anyOfSeveralArgumentsSelectsTheAlternative() {
        stage.greeter.onArgs(["plexus-a", "plexus-b"]) { MockGreeter() }
        FactoryContext.setArg("plexus-b", forKey: "greeter")
        defer { FactoryContext.removeArg(forKey: "greeter") }
        #expect(stage.greeter().greeting == "mock")
    }

    @Test func debugContextIsRegisteredInDebugBuildsOnly() {
        stage.greeter.onDebug { MockGreeter() }
        let saved = FactoryContext.current
        FactoryContext.current.isTest = false
        defer { FactoryContext.current = saved }
        #if DEBUG
            #expect(stage.greeter().greeting == "mock")
        #else
            #expect(stage.greeter().greeting == "hello")
        #endif
    }

    @Test func simulatorAndDeviceFollowTheContext() {
        stage.greeter.onSimulator { MockGreeter() }.onDevice { EnglishGreeter() }
        let saved = FactoryContext.current
        defer { FactoryContext.current = saved }
        FactoryContext.current.isSimulator = true
        #expect(stage.greeter().greeting == "mock")
        FactoryContext.current.isSimulator = false
        #expect(stage.greeter().greeting == "hello")
    }

    @Test func resetContextDropsTheAlternatives() {
        stage.greeter.context(.test) { MockGreeter() }
        stage.greeter.reset(.context)
        #expect(stage.greeter().greeting == "hello")
    }
}
