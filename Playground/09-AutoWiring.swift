import Plexus

private protocol Api: AnyObject {
    var name: String { get }
}

private final class HTTPApi: Api {
    let name: String
    init(name: String) { self.name = name }
}

private final class Store {}

private final class Repository {
    let api: Api
    let store: Store?
    init(api: Api, store: Store? = nil) {
        self.api = api
        self.store = store
    }
}

private final class Ambiguous {
    init(_ value: Any) {}
}

@MainActor
func autoWiring() throws {
    show("A factory that takes arguments can be resolved without arguments: Plexus resolves each argument.")
    let container = DependencyContainer()
    container.register { HTTPApi(name: "default") as Api }
    container.register(tag: "prod") { HTTPApi(name: "prod") as Api }
    container.register { Store() }
    container.register { (api: Api) in Repository(api: api) }
    container.register { (api: Api, store: Store) in Repository(api: api, store: store) }

    let repository: Repository = try container.resolve()
    check(repository.store != nil, "resolve() with no arguments auto-wires the definition with the most arguments")
    check(repository.api.name == "default", "each argument is resolved from the container")

    let again: Repository = try container.resolve()
    check(
        again !== repository && again.store != nil,
        "the next auto-wired resolve makes a new instance the same way (its arguments' types are worked out once)")

    let production: Repository = try container.resolve(tag: "prod")
    check(
        production.api.name == "prod",
        "the requested tag passes down to the arguments (Store falls back to its untagged definition)")

    let explicit: Repository = try container.resolve(arguments: HTTPApi(name: "explicit") as Api)
    check(
        explicit.api.name == "explicit" && explicit.store == nil,
        "explicit arguments pick the exact definition and never auto-wire")

    container.register { (count: Int) in Ambiguous(count) }
    container.register { (title: String) in Ambiguous(title) }
    let error = caught { try container.resolve() as Ambiguous }
    if case .autoWiringFailed(_, let underlying)? = error as? ResolutionError,
        case .ambiguousDefinitions(_, let definitions)? = underlying as? ResolutionError
    {
        show("\(error!)")
        check(
            definitions.count == 2, "two candidates with as many arguments are ambiguous: autoWiringFailed says which")
    } else {
        check(
            false,
            "ambiguous auto-wiring throws autoWiringFailed(ambiguousDefinitions) (got \(String(describing: error)))")
    }
}
