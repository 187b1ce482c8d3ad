import Plexus
import PlexusTesting
import Testing

private final class Api {}
private final class Presenter {
    init(api: Api) {}
}
private final class Ping {
    init(pong: Pong) {}
}
private final class Pong {
    init(ping: Ping) {}
}

@Suite(.silencingPlexusLogs) struct RegistrationSiteMessageTests {
    let container = DependencyContainer(name: "Checkout")

    @Test func aNearMissNamesTheContainerAndRegistrationSite() {
        let root = DependencyContainer(name: "Root")
        let line = #line + 1
        root.register(tag: "prod") { Api() }
        container.collaborate(with: root)
        let error = #expect(throws: ResolutionError.self) { try container.resolve(tag: "test") as Api }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("Near miss: Api is registered for tag \"prod\". It is in Root (\(#fileID):\(line))."))
    }

    @Test func aFailedValidationNamesWhereTheValidatedDefinitionIs() {
        let line = #line + 1
        container.register { [unowned container] in Presenter(api: try container.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try container.validate() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("Validation of Presenter failed: No definition registered for Api"))
        #expect(text.hasSuffix(" Presenter is registered in Checkout (\(#fileID):\(line))."))
    }

    @Test func aFailedValidationOfACycleSaysWhereEachDefinitionIs() {
        let other = DependencyContainer(name: "Other")
        let pingLine = #line + 1
        container.register { [unowned container] in Ping(pong: try container.resolve()) }
        let pongLine = #line + 1
        other.register { [unowned other] in Pong(ping: try other.resolve()) }
        container.collaborate(with: other)
        other.collaborate(with: container)
        let error = #expect(throws: ResolutionError.self) { try container.validate() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("Validation of Ping failed: Circular dependency: Ping -> Pong -> Ping."))
        #expect(
            text.hasSuffix(
                "The cycle's definitions: Ping in Checkout (\(#fileID):\(pingLine)), Pong in Other (\(#fileID):\(pongLine))."
            ))
    }
}
