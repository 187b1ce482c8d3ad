import Plexus

private protocol ListInput: AnyObject {}
private protocol ListOutput: AnyObject {}
private protocol Refreshing: AnyObject {}

private final class ListPresenter: ListInput, ListOutput, Refreshing {
    var refreshedThroughForwarding = false
}

private final class ListScreen {
    let input: ListInput
    let output: ListOutput
    init(input: ListInput, output: ListOutput) {
        self.input = input
        self.output = output
    }
}

private protocol Reading: AnyObject {}
private final class Store: Reading {}

private protocol Unrelated {}
private final class Plain {}

@MainActor
func typeForwarding() throws {
    let container = DependencyContainer()
    container.register { ListPresenter() }
        .implements(ListInput.self, ListOutput.self)
    container.register { c in
        ListScreen(input: try c.resolve(), output: try c.resolve())
    }

    let screen: ListScreen = try container.resolve()
    check(
        screen.input === screen.output,
        "implements(ListInput.self, ListOutput.self): both resolve the one .shared presenter of the graph")

    container.register(.singleton) { Store() }.implements(Reading.self, tag: "db")
    let store: Store = try container.resolve()
    let reader = try container.resolve(tag: "db") as Reading
    check(reader === store, "implements(Reading.self, tag: \"db\") shares the singleton: reader === store")

    let presenterDefinition = container.register(tag: "refresh") { ListPresenter() }
    presenterDefinition.implements(Refreshing.self, tag: "refresh") { _, refreshing in
        (refreshing as? ListPresenter)?.refreshedThroughForwarding = true
    }
    let direct: ListPresenter = try container.resolve(tag: "refresh")
    let forwarded = try container.resolve(tag: "refresh") as Refreshing
    check(
        !direct.refreshedThroughForwarding && (forwarded as? ListPresenter)?.refreshedThroughForwarding == true,
        "a forwarding registration's own hook runs only when the instance is created through that type")

    container.register { Plain() }.implements(Unrelated.self)
    let error = caught { try container.resolve() as Unrelated }
    if case .invalidType(let resolved, _)? = error as? ResolutionError {
        check(resolved == Plain.self, "forwarding to a type the instances are not throws invalidType (see chapter 14)")
    } else {
        check(false, "a wrong forwarding throws invalidType (got \(String(describing: error)))")
    }
}
