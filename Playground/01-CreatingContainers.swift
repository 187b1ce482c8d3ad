import Plexus

private protocol Greeting: AnyObject {
    var text: String { get }
}

private final class Hello: Greeting {
    let text = "Hello, Plexus"
}

/// Counts its `Resolvable` callbacks, to show a container that opts out of them.
private final class Completed: Resolvable {
    var callbacks = 0
    func didResolveDependencies() { callbacks += 1 }
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

    // An app that uses neither `Resolvable` nor `@Injected` opts out of both: its first resolves then ask the Swift
    // runtime no conformance question (the cost of an app's launch, `Benchmarks/launch`).
    let lean = DependencyContainer(autoInjectProperties: false, callsResolvable: false)
    lean.register { Completed() }
    let leanCompleted: Completed = try lean.resolve()
    let usualCompleted: Completed = try DependencyContainer { $0.register { Completed() } }.resolve()
    check(
        leanCompleted.callbacks == 0 && usualCompleted.callbacks == 1,
        "DependencyContainer(callsResolvable: false) skips Resolvable's callbacks; the default calls them")

    let dipStyle = DependencyContainer(threadSafe: false)
    dipStyle.register(.singleton) { Hello() }
    let first: Hello = try dipStyle.resolve()
    let second: Hello = try dipStyle.resolve()
    check(first === second, "threadSafe: is accepted for Dip code; every container is thread-safe anyway")
}
