import Plexus
import PlexusTesting
import Testing

// Auto-wiring resolves a factory's arguments into a tuple it lays out itself, and repeated auto-wired resolves take
// the fast path through a remembered local route. These tests resolve more than once (the first resolve finds the
// definition on the general path; the next ones take the route) and use arguments of mixed sizes and alignments.

private final class Token {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class Tracked {
    nonisolated(unsafe) static var alive = 0
    init() { Tracked.alive += 1 }
    deinit { Tracked.alive -= 1 }
}

private struct Pair: Equatable {
    let first: Int16
    let second: Int8
}

/// Receives arguments whose offsets in the tuple are not all aligned for an `Any` (`UInt8` then `UInt16`, `Bool`
/// then `Int32`), next to reference and larger value types.
private final class Mixed {
    let byte: UInt8
    let half: UInt16
    let flag: Bool
    let word: Int32
    let text: String
    let token: Token
    let pair: Pair
    let number: Double

    init(byte: UInt8, half: UInt16, flag: Bool, word: Int32, text: String, token: Token, pair: Pair, number: Double) {
        (self.byte, self.half, self.flag, self.word) = (byte, half, flag, word)
        (self.text, self.token, self.pair, self.number) = (text, token, pair, number)
    }
}

private protocol Named {
    var name: String { get }
}

extension Token: Named {}

private final class Holder {
    let tag: UInt8
    let named: Named
    init(tag: UInt8, named: Named) { (self.tag, self.named) = (tag, named) }
}

private final class Consumer {
    let first: Tracked
    let second: Token
    init(first: Tracked, second: Token) { (self.first, self.second) = (first, second) }
}

private enum Failure: Error { case noToken }

private final class Wired {
    let token: Token
    var hooked = 0
    init(token: Token) { self.token = token }
}

private final class Twice {
    let first: Wired
    let second: Wired
    init(first: Wired, second: Wired) { (self.first, self.second) = (first, second) }
}

private enum Environment: String, DependencyTagConvertible {
    case staging, production
}

@Suite(.silencingPlexusLogs) struct AutoWiringArgumentTests {
    let container = DependencyContainer()

    @Test func argumentsOfMixedSizesAndAlignmentsArriveIntact() throws {
        container.register { UInt8(7) }
        container.register { UInt16(0xBEEF) }
        container.register { true }
        container.register { Int32(-123_456) }
        container.register { "a string longer than fifteen bytes, so not a small string" }
        container.register { Token("token") }
        container.register { Pair(first: -2, second: 9) }
        container.register { 2.5 }
        container.register {
            (
                byte: UInt8, half: UInt16, flag: Bool, word: Int32, text: String, token: Token,
                pair: Pair, number: Double
            ) in
            Mixed(byte: byte, half: half, flag: flag, word: word, text: text, token: token, pair: pair, number: number)
        }

        for _ in 0..<3 {
            let mixed: Mixed = try container.resolve()
            #expect(mixed.byte == 7)
            #expect(mixed.half == 0xBEEF)
            #expect(mixed.flag)
            #expect(mixed.word == -123_456)
            #expect(mixed.text == "a string longer than fifteen bytes, so not a small string")
            #expect(mixed.token.name == "token")
            #expect(mixed.pair == Pair(first: -2, second: 9))
            #expect(mixed.number == 2.5)
        }
    }

    @Test func emptyAndOptionalArgumentsAreResolvedToo() throws {
        // A zero-sized argument between two others, and a `T?` argument answered by `T`'s definition.
        struct Marker: Equatable {}
        final class Holding {
            let marker: Marker
            let token: Token?
            let flag: Bool
            init(marker: Marker, token: Token?, flag: Bool) {
                (self.marker, self.token, self.flag) = (marker, token, flag)
            }
        }
        container.register { Marker() }
        container.register { Token("optional") }
        container.register { true }
        container.register { (marker: Marker, token: Token?, flag: Bool) in
            Holding(marker: marker, token: token, flag: flag)
        }

        for _ in 0..<3 {
            let holding: Holding = try container.resolve()
            #expect(holding.marker == Marker())
            #expect(holding.token?.name == "optional")
            #expect(holding.flag)
        }
    }

    @Test func anArgumentDeliveredThroughForwardingIsCastIntoItsPlace() throws {
        // `Named` is resolved through a forwarding registration (delivered as `Any`), at an offset after a byte.
        container.register { UInt8(3) }
        container.register { Token("forwarded") }.implements(Named.self)
        container.register { (tag: UInt8, named: Named) in Holder(tag: tag, named: named) }

        for _ in 0..<3 {
            let holder: Holder = try container.resolve()
            #expect(holder.tag == 3)
            #expect(holder.named.name == "forwarded")
        }
    }

    @Test func argumentsResolvedBeforeOneFailsAreReleased() throws {
        let before = Tracked.alive
        container.register { Tracked() }
        container.register { () throws -> Token in throw Failure.noToken }
        container.register { (first: Tracked, second: Token) in Consumer(first: first, second: second) }

        for _ in 0..<3 {
            let error = #expect(throws: ResolutionError.self) { try container.resolve() as Consumer }
            guard case .autoWiringFailed(_, let underlying) = error else {
                Issue.record("expected autoWiringFailed, got \(String(describing: error))")
                return
            }
            #expect(underlying as? Failure == .noToken)
            #expect(Tracked.alive == before)
        }
    }

    @Test func repeatedResolvesMakeNewInstancesAndRunHooksEachTime() throws {
        container.register { Token("t") }
        container.register { (token: Token) in Wired(token: token) }
            .resolvingProperties { _, wired in wired.hooked += 1 }

        let first: Wired = try container.resolve()
        let second: Wired = try container.resolve()
        let third: Wired = try container.resolve()

        #expect(first !== second && second !== third)
        #expect(first.token !== second.token)
        #expect([first.hooked, second.hooked, third.hooked] == [1, 1, 1])
    }

    @Test func aSharedAutoWiredInstanceIsSharedWithinEachGraphOnly() throws {
        container.register { Token("t") }
        container.register(.shared) { (token: Token) in Wired(token: token) }
        container.register { [unowned container] () throws -> Twice in
            Twice(first: try container.resolve(), second: try container.resolve())
        }

        let one: Twice = try container.resolve()
        let two: Twice = try container.resolve()

        #expect(one.first === one.second)
        #expect(two.first === two.second)
        #expect(one.first !== two.first)
    }

    @Test func aDefinitionRegisteredLaterUnderTheExactKeyWinsOverTheRememberedAutoWiring() throws {
        container.register { Token("wired") }
        container.register { (token: Token) in Wired(token: token) }
        #expect((try container.resolve() as Wired).token.name == "wired")
        #expect((try container.resolve() as Wired).token.name == "wired")

        container.register { Wired(token: Token("exact")) }

        #expect((try container.resolve() as Wired).token.name == "exact")
        #expect((try container.resolve() as Wired).token.name == "exact")
    }

    @Test func removingAnArgumentsDefinitionFailsTheNextAutoWiredResolve() throws {
        container.register { Token("t") }
        container.register { (token: Token) in Wired(token: token) }
        _ = try container.resolve() as Wired
        _ = try container.resolve() as Wired

        container.reset()
        container.register { (token: Token) in Wired(token: token) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Wired }
        guard case .autoWiringFailed(_, .definitionNotFound(let missing) as ResolutionError) = error else {
            Issue.record("expected autoWiringFailed(definitionNotFound), got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(missing.type) == ObjectIdentifier(Token.self))
    }

    @Test func anAutoWiredSingletonIsMadeOnceAcrossRepeatedResolves() throws {
        let calls = Counter()
        container.register { Token("t") }
        container.register(.singleton) { (token: Token) -> Wired in
            calls.increment()
            return Wired(token: token)
        }

        let first: Wired = try container.resolve()
        let second: Wired = try container.resolve()
        let third: Wired = try container.resolve()

        #expect(first === second && second === third)
        #expect(calls.count == 1)
    }

    @Test func theRequestedTagReachesTheArgumentsOnEveryResolve() throws {
        container.register(tag: "staging") { Token("staging token") }
        container.register { Token("untagged token") }
        container.register { (token: Token) in Wired(token: token) }

        for _ in 0..<2 {
            #expect((try container.resolve(tag: "staging") as Wired).token.name == "staging token")
            #expect((try container.resolve(tag: Environment.staging) as Wired).token.name == "staging token")
            #expect((try container.resolve() as Wired).token.name == "untagged token")
        }
    }

    @Test func everyFormOfTagFindsTheSameDefinition() throws {
        container.register(tag: Environment.production) { Token("production") }
        container.register(tag: 42) { Token("forty-two") }

        let existential: DependencyTagConvertible = Environment.production
        let optional: DependencyTagConvertible? = 42
        let tag: DependencyContainer.Tag = "production"

        #expect((try container.resolve(tag: Environment.production) as Token).name == "production")
        #expect((try container.resolve(tag: "production") as Token).name == "production")
        #expect((try container.resolve(tag: existential) as Token).name == "production")
        #expect((try container.resolve(tag: tag) as Token).name == "production")
        #expect((try container.resolve(tag: 42) as Token).name == "forty-two")
        #expect((try container.resolve(tag: optional) as Token).name == "forty-two")
        #expect((try container.resolve(tag: DependencyContainer.Tag.Int(42)) as Token).name == "forty-two")
    }
}
