import Plexus

private protocol Service: AnyObject {
    var name: String { get }
}

private final class ServiceImp: Service {
    let name: String
    init(name: String = "ServiceImp") { self.name = name }
}

private final class Clock {}

private final class Presenter {
    let service: Service
    var title = ""
    init(service: Service) { self.service = service }
}

@MainActor
func registering() throws {
    let container = DependencyContainer()

    let serviceDefinition = container.register { ServiceImp() as Service }
    check(
        serviceDefinition.scope == .shared, "register { ServiceImp() as Service } registers Service, .shared by default"
    )

    container.register(.singleton) { Clock() }
    let clock: Clock = try container.resolve()
    let sameClock: Clock = try container.resolve()
    check(clock === sameClock, "register(.singleton) { Clock() } picks another scope")

    container.register(type: Service.self, tag: "typed") { ServiceImp(name: "typed") }
    let typed: Service = try container.resolve(tag: "typed")
    check(typed.name == "typed", "type: registers under a type other than the factory's result type")

    container.register { c in Presenter(service: try c.resolve()) }
        .resolvingProperties { _, presenter in presenter.title = "Inbox" }
    let presenter: Presenter = try container.resolve()
    check(
        presenter.service.name == "ServiceImp" && presenter.title == "Inbox",
        "a factory resolves its dependencies; a chained resolvingProperties hook sets properties after it")

    // Handed the container, a factory needs no capture list, so nothing keeps the container alive. Dip's
    // `{ [unowned container] in … }` works too; without `[unowned container]` it would leak the container.
    weak var freed: DependencyContainer?
    try {
        let scratch = DependencyContainer()
        scratch.register { c in Presenter(service: try c.resolve()) }
        scratch.register(tag: "captured") { [unowned scratch] in Presenter(service: try scratch.resolve()) }
        scratch.register { ServiceImp() as Service }
        _ = try scratch.resolve() as Presenter
        _ = try scratch.resolve(tag: "captured") as Presenter
        freed = scratch
    }()
    check(freed == nil, "register { c in … } hands the factory its container: no capture, no leak")

    container.register(.shared, type: Service.self, tag: nil, factory: { ServiceImp(name: "replacement") })
    let replaced: Service = try container.resolve()
    check(replaced.name == "replacement", "registering again under the same key replaces the old definition")

    let backup = container.register(tag: "backup") { ServiceImp(name: "backup") as Service }
    container.register(backup, tag: "mirror")
    let mirror: Service = try container.resolve(tag: "mirror")
    check(mirror.name == "backup", "register(definition, tag:) registers the same definition under another tag")

    container.remove(backup, tag: "mirror")
    let fallback: Service = try container.resolve(tag: "mirror")
    check(fallback.name == "replacement", "remove(definition, tag:) removes it; the tag falls back to the untagged one")

    container.reset()
    let afterReset = caught { try container.resolve() as Service }
    check(afterReset is ResolutionError, "reset() drops every definition (resolving now throws a ResolutionError)")
}
