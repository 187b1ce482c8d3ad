import Plexus

private protocol Api: AnyObject {}
private final class HTTPApi: Api {}

private final class Cell {
    init(id: Int, title: String) {}
}

private protocol Playing {}
private final class Recorder {}

private final class Parent {
    init(child: Child) {}
}

private final class Child {
    init(parent: Parent) {}
}

private struct Unauthorized: Error {}

private final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

private final class Presenter {
    init(api: Api) {}
}

private final class Screen {
    init(presenter: Presenter) {}
}

@MainActor
func errors() throws {
    show("Every ResolutionError says what was asked for, in Swift spelling, and what to do about it.")
    let container = DependencyContainer()

    container.register(tag: "prod") { HTTPApi() as Api }
    let notFound = caught { try container.resolve() as Api }
    show("resolve() as Api, with Api only registered for tag \"prod\":")
    show("  \(notFound.map { "\($0)" } ?? "no error")")
    if case .definitionNotFound? = notFound as? ResolutionError {
        check(
            "\(notFound!)".contains("Near miss: Api is registered for tag \"prod\"."),
            "definitionNotFound names the near miss: the tag it is registered for")
    } else {
        check(false, "a missing definition throws definitionNotFound")
    }

    container.register { (id: Int, title: String) in Cell(id: id, title: title) }
    let wrongArguments = caught { try container.resolve(arguments: "Inbox") as Cell }
    show("resolve(arguments: \"Inbox\") as Cell, with Cell registered with (Int, String):")
    show("  \(wrongArguments.map { "\($0)" } ?? "no error")")
    check(
        "\(wrongArguments.map { "\($0)" } ?? "")".contains("registered with arguments (Int, String)"),
        "wrong runtime arguments: the error lists the arguments the definition takes")

    container.register { Recorder() }.implements(Playing.self)
    let invalid = caught { try container.resolve() as Playing }
    show("implements(Playing.self) on a Recorder that is not Playing, then resolve() as Playing:")
    show("  \(invalid.map { "\($0)" } ?? "no error")")
    if case .invalidType? = invalid as? ResolutionError {
        check("\(invalid!)".contains("Recorder"), "invalid forwarding throws invalidType, naming the instance's type")
    } else {
        check(false, "invalid forwarding throws invalidType")
    }

    container.register { c in Parent(child: try c.resolve()) }
    container.register { c in Child(parent: try c.resolve()) }
    let cycle = caught { try container.resolve() as Parent }
    show("Parent(child:) and Child(parent:) resolving each other in their initializers:")
    show("  \(cycle.map { "\($0)" } ?? "no error")")
    check(
        "\(cycle.map { "\($0)" } ?? "")".hasPrefix("Circular dependency: Parent -> Child -> Parent"),
        "a constructor cycle prints its path and how to break it")

    container.register { Screen(presenter: try container.resolve()) }
    container.register { Presenter(api: try container.resolve(tag: "staging")) }
    let deep = caught { try container.resolve() as Screen }
    show("Screen -> Presenter -> Api (tag: \"staging\"), with no staging Api:")
    show("  \(deep.map { "\($0)" } ?? "no error")")
    check(
        "\(deep.map { "\($0)" } ?? "")".hasPrefix(
            "No definition registered for Api (tag: \"staging\"), required by Presenter, required by Screen."),
        "a missing dependency deep in a graph says what required it")

    // A chain nested deeper than the thread's stack can hold throws instead of crashing the process.
    let chain = DependencyContainer()
    for level in 0..<20_000 {
        chain.register(.unique, tag: level) { (c: DependencyContainer) throws -> Link in
            Link(next: level < 19_999 ? try c.resolve(tag: level + 1) as Link : nil)
        }
    }
    let tooDeep = onSmallStackThread { caught { try chain.resolve(tag: 0) as Link } } ?? nil
    show("A 20,000-deep chain of factories on a thread with a 512 KB stack:")
    show("  \(tooDeep.map { "\($0)" } ?? "no error")")
    if case .resolutionTooDeep? = tooDeep as? ResolutionError {
        check(true, "a graph too deep for the thread's stack throws resolutionTooDeep, naming the depth and path")
    } else {
        check(false, "a graph too deep for the thread's stack throws resolutionTooDeep")
    }

    container.register(tag: "expired") { () -> Api in throw Unauthorized() }
    let domainError = caught { try container.resolve(tag: "expired") as Api }
    check(domainError is Unauthorized, "an error thrown by your own factory comes out unchanged")

    let logged = Locked<[String]>([])
    let previousLevel = Plexus.logLevel
    let previousLogger = Plexus.logger
    Plexus.logger = { _, message in logged.update { $0.append("\(message)") } }
    Plexus.logLevel = .errors
    _ = caught { try container.resolve(tag: "staging", arguments: 1) as Api }
    check(logged.value.isEmpty, "at the default level (.errors) an error that is thrown to you is not logged as well")
    Plexus.logLevel = .verbose
    _ = caught { try container.resolve(tag: "staging", arguments: 1) as Api }
    Plexus.logLevel = previousLevel
    Plexus.logger = previousLogger
    check(
        logged.value.count == 1 && logged.value[0].contains("Api"),
        "at .verbose, Plexus.logger receives each failed resolution too")
}
