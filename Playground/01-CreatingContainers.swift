import Plexus

private protocol Greeting: AnyObject {
    var text: String { get }
}

private final class Hello: Greeting {
    let text = "Hello, Plexus"
}

/// A feature module builds its container in one place and hands it out.
private func makeGreetingModule() -> DependencyContainer {
    DependencyContainer { container in
        container.register { Hello() as Greeting }
    }
}

@MainActor
func creatingContainers() throws {
    show("A container holds definitions and the instances they cache. It is a Sendable class:")
    show("share it across threads and tasks freely.")

    let container = DependencyContainer()
    check(container.autoInjectProperties, "DependencyContainer() auto-injects @Injected properties by default")
    check(!container.isBootstrapped, "a new container is not bootstrapped")
    check(container.context == nil, "container.context is nil outside a resolution")

    let module = makeGreetingModule()
    let greeting: Greeting = try module.resolve()
    check(greeting.text == "Hello, Plexus", "the configBlock of init(configBlock:) registers definitions up front")

    let plain = DependencyContainer(autoInjectProperties: false)
    check(!plain.autoInjectProperties, "DependencyContainer(autoInjectProperties: false) leaves @Injected alone")

    let dipStyle = DependencyContainer(threadSafe: false)
    dipStyle.register(.singleton) { Hello() }
    let first: Hello = try dipStyle.resolve()
    let second: Hello = try dipStyle.resolve()
    check(first === second, "threadSafe: is accepted for Dip code; every container is thread-safe anyway")
}
