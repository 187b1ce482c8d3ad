import Plexus

private final class Cell {
    let id: Int
    let title: String
    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

private struct Report {
    let parts: [String]
}

@MainActor
func runtimeArguments() throws {
    let container = DependencyContainer()
    container.register(.unique) { (id: Int, title: String) in Cell(id: id, title: title) }

    let cell: Cell = try container.resolve(arguments: 42, "Inbox")
    check(
        cell.id == 42 && cell.title == "Inbox",
        "resolve(arguments: 42, \"Inbox\") passes runtime arguments to the factory")

    container.register(.unique) { (id: Int) in Cell(id: id, title: "untitled") }
    container.register(.unique) { Cell(id: 0, title: "empty") }
    let oneArgument: Cell = try container.resolve(arguments: 7)
    let noArgument: Cell = try container.resolve()
    check(
        oneArgument.title == "untitled" && noArgument.title == "empty",
        "definitions with other argument types are other definitions: (Int, String), (Int) and () coexist")

    let swapped = caught { try container.resolve(arguments: "Inbox", 42) as Cell }
    if case .definitionNotFound(let key)? = swapped as? ResolutionError {
        check(
            key.typeOfArguments == (String, Int).self,
            "arguments match by exact types, count and order: (String, Int) is not found")
    } else {
        check(false, "arguments in the wrong order throw definitionNotFound (got \(String(describing: swapped)))")
    }

    container.register(tag: "seven") {
        (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: String) in
        Report(parts: [a, b, c, d, e, f].map(String.init) + [g])
    }
    let report: Report = try container.resolve(tag: "seven", arguments: 1, 2, 3, 4, 5, 6, "seven")
    check(report.parts.count == 7, "one generic register takes any number of arguments (Dip stopped at six)")

    let forgetful = DependencyContainer()
    forgetful.register { (id: Int) in Cell(id: id, title: "detail") }
    let forgotten = caught { try forgetful.resolve() as Cell }
    show("Resolving a definition that takes (Int) without arguments:")
    show("  \(forgotten.map { "\($0)" } ?? "no error")")
    check(
        "\(forgotten.map { "\($0)" } ?? "")".contains("`try container.resolve(arguments: 42)`"),
        "forgetting a runtime argument says to pass it, not to register an Int")
}
