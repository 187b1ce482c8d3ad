import Plexus

private protocol Service: AnyObject {}

private final class ServiceImp: Service {}

private final class Logger {
    let category: String
    init(category: String) { self.category = category }
}

private final class Inbox {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}

@MainActor
func resolving() throws {
    let container = DependencyContainer()
    container.register { ServiceImp() as Service }

    let service: Service = try container.resolve()
    check(service is ServiceImp, "let service: Service = try container.resolve() infers the type from the annotation")

    let spelled = try container.resolve() as Service
    check(spelled is ServiceImp, "try container.resolve() as Service spells it inline")

    let maybe: Service? = try container.resolve()
    check(maybe != nil, "Service? resolves through the definition of Service")

    let implicitlyUnwrapped: Service! = try container.resolve()
    check(implicitlyUnwrapped != nil, "so does Service!")

    let erased = try container.resolve(Service.self)
    check(erased is ServiceImp, "resolve(Service.self) resolves a type known only at run time, returned as Any")

    container.register { () -> Logger in
        let context = container.context!
        let owner = context.injectedInType.map { "\($0)" } ?? "app"
        return Logger(category: "\(owner) resolving \(context.resolvingType)")
    }
    container.register { c in Inbox(logger: try c.resolve()) }
    let inbox: Inbox = try container.resolve()
    show("a factory reads container.context: \"\(inbox.logger.category)\"")
    check(
        inbox.logger.category == "Inbox resolving Logger",
        "container.context tells a factory what it resolves and for which type")
    let standalone: Logger = try container.resolve()
    check(standalone.category == "app resolving Logger", "context.injectedInType is nil for the outermost resolve")
}
