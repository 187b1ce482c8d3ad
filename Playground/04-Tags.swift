import Plexus

private protocol Api: AnyObject {
    var url: String { get }
}

private final class HTTPApi: Api {
    let url: String
    init(url: String) { self.url = url }
}

private final class Cache {}

private enum Environment: String, DependencyTagConvertible {
    case production
    case staging
}

@MainActor
func tags() throws {
    let container = DependencyContainer()
    container.register(tag: "prod") { HTTPApi(url: "https://api.example.com") as Api }
    container.register(tag: "staging") { HTTPApi(url: "https://staging.example.com") as Api }
    container.register { HTTPApi(url: "http://localhost") as Api }

    let prod = try container.resolve(tag: "prod") as Api
    let staging = try container.resolve(tag: "staging") as Api
    check(
        prod.url == "https://api.example.com" && staging.url == "https://staging.example.com",
        "tags tell apart definitions of one type: \"prod\" and \"staging\" give different Apis")

    let dev = try container.resolve(tag: "dev") as Api
    check(dev.url == "http://localhost", "a tag with no definition of its own falls back to the untagged one")

    let strict = DependencyContainer()
    strict.register { HTTPApi(url: "http://localhost") as Api }
    strict.fallsBackToUntaggedDefinitions = false
    let mistyped = caught { try strict.resolve(tag: "prdo") as Api }
    check(
        "\(mistyped.map { "\($0)" } ?? "")".contains("registered without a tag"),
        "a container with fallsBackToUntaggedDefinitions = false throws for a tag it has no definition for")

    container.register(tag: 2) { HTTPApi(url: "https://v2.example.com") as Api }
    let byInt = try container.resolve(tag: 2) as Api
    let byCase = try container.resolve(tag: DependencyContainer.Tag.int(2)) as Api
    check(byInt.url == byCase.url, "integer tags work too, as literals or as .int(_)")

    let dipSpelling = try container.resolve(tag: DependencyContainer.Tag.String("prod")) as Api
    check(dipSpelling.url == prod.url, "Dip's .String(\"prod\") spelling still compiles and means .string(\"prod\")")

    container.register(tag: Environment.production) { HTTPApi(url: "https://enum.example.com") as Api }
    let fromEnum = try container.resolve(tag: Environment.production) as Api
    let fromRawValue = try container.resolve(tag: "production") as Api
    check(
        fromEnum.url == "https://enum.example.com" && fromRawValue.url == fromEnum.url,
        "a String enum that declares DependencyTagConvertible is a tag (its raw value)")

    let boxed: DependencyTagConvertible = Environment.production
    let optional: DependencyTagConvertible? = Environment.production
    let fromBoxed = try container.resolve(tag: boxed) as Api
    let fromOptional = try container.resolve(tag: optional) as Api
    check(
        fromBoxed.url == fromEnum.url && fromOptional.url == fromEnum.url,
        "a tag held as `any DependencyTagConvertible` or as an optional finds the same definition as the enum case")

    container.register(.singleton) { Cache() }
    let untagged: Cache = try container.resolve()
    let taggedA: Cache = try container.resolve(tag: "a")
    let taggedB: Cache = try container.resolve(tag: "b")
    check(
        untagged === taggedA && taggedA === taggedB,
        "an untagged singleton resolved as tag \"a\", tag \"b\" and untagged is one instance: cached per definition")
}
