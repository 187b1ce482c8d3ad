import Plexus

private final class Database {}

private final class Cache {}

private final class Downloader {
    let database: Database
    init(database: Database) { self.database = database }
}

private final class Cell {
    init(id: Int, title: String) {}
}

private struct Offline: Error {}

@MainActor
func bootstrapAndValidate() throws {
    let container = DependencyContainer()
    let databasesMade = Locked(0)
    let cachesMade = Locked(0)
    let databaseIsDown = Locked(true)
    container.register(.eagerSingleton) { () -> Database in
        if databaseIsDown.value { throw Offline() }
        databasesMade.increment()
        return Database()
    }

    let failed = caught { try container.bootstrap() }
    check(
        failed is Offline && !container.isBootstrapped,
        "bootstrap() propagates a factory's error and leaves the container not bootstrapped")

    databaseIsDown.update { $0 = false }
    try container.bootstrap()
    check(
        container.isBootstrapped && databasesMade.value == 1,
        "once fixed, bootstrap() can run again: eager singletons are made up front")

    container.register(.eagerSingleton) { () -> Cache in
        cachesMade.increment()
        return Cache()
    }
    check(cachesMade.value == 0, "registering after bootstrap() is fine (nothing made yet)")
    try container.bootstrap()
    let database: Database = try container.resolve()
    let sameDatabase: Database = try container.resolve()
    check(
        cachesMade.value == 1 && databasesMade.value == 1 && database === sameDatabase,
        "the next bootstrap() makes only the new eager singleton; the old one is kept")

    show("validate() resolves every definition to prove the graph can be built.")
    container.register { c in Downloader(database: try c.resolve()) }
    container.register(.unique) { (id: Int, title: String) in Cell(id: id, title: title) }
    try container.validate((1, "title"))
    check(true, "validate((1, \"title\")) builds every definition; (Int, String) ones with that argument set")

    let incomplete = DependencyContainer()
    incomplete.register { c in Downloader(database: try c.resolve()) }
    let missing = caught { try incomplete.validate() }
    if case .definitionNotFound(let key)? = missing as? ResolutionError {
        check(key.type == Database.self, "validate() throws definitionNotFound for a missing registration")
    } else {
        check(false, "validate() reports the missing Database (got \(String(describing: missing)))")
    }

    let forwarding = DependencyContainer()
    forwarding.register { Cell(id: 0, title: "") }.implements(Database.self)
    let wrongType = caught { try forwarding.validate() } as? ResolutionError
    if case .invalidType? = wrongType {
        check(
            wrongType?.validatedDefinition?.type == Cell.self,
            "validate() also resolves implemented types, and says which definition failed")
    } else {
        check(false, "validate() reports a forwarding to a type Cell is not (got \(String(describing: wrongType)))")
    }

    let domain = DependencyContainer()
    domain.register { () -> Database in throw Offline() }
    check(caught { try domain.validate() } == nil, "errors of your own factories are domain errors: validate() passes")
}
