import Plexus
import XCTest

// The Swift 6 snippet of the DocC article MigratingFromDip.md, kept as the article writes it: an `XCTestCase`, as in
// Dip's own suite, whose factory takes the container as its parameter instead of capturing the non-Sendable `self`.
// It compiles here in the Swift 6 language mode, and the XCTest runner runs it.

private protocol Service: AnyObject {}
private final class ServiceImp: Service {}
private final class Client {
    let service: Service
    init(service: Service) { self.service = service }
}

final class ClientTests: XCTestCase {
    let container = DependencyContainer()

    func testClientGetsItsService() throws {
        container.register { ServiceImp() as Service }

        // Dip: captures `self`, a non-Sendable XCTestCase; an error in the Swift 6 language mode
        // container.register { Client(service: try self.container.resolve()) }

        // Plexus: the factory is handed the container it is registered with
        container.register { c in Client(service: try c.resolve()) }

        let client: Client = try container.resolve()
        XCTAssertTrue(client.service is ServiceImp)
    }
}
