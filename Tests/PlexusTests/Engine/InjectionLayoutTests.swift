import Plexus
import Testing

// Auto-injection reads the boxes of a class at offsets learned once per type; these hosts check that every instance
// gets its own boxes filled, and that boxes the per-type layout cannot see (behind `Any` or an optional) still are.

private final class Service {}

private final class Pair {
    @Injected var first: Service?
    let count = 2
    @Injected var second: Service?
}

private final class GenericHost<Extra> {
    let extra: Extra
    @Injected var service: Service?

    init(_ extra: Extra) {
        self.extra = extra
    }
}

private final class HiddenBoxes {
    let anyBox: Any = Injected<Service>()
    let optionalBox: Injected<Service>? = Injected<Service>()

    func services() -> [Service?] {
        [(anyBox as? Injected<Service>)?.value, optionalBox?.value]
    }
}

@Suite struct InjectionLayoutTests {
    let container = DependencyContainer()

    @Test func everyInstanceOfATypeGetsItsOwnPropertiesFilled() throws {
        container.register(.unique) { Service() }
        container.register { Pair() }

        let pairs = try (0..<3).map { _ in try container.resolve() as Pair }

        for pair in pairs {
            #expect(pair.first != nil && pair.second != nil)
            #expect(pair.first !== pair.second)
        }
        #expect(pairs[0].first !== pairs[1].first)
    }

    @Test func eachSpecializationOfAGenericHostIsInjected() throws {
        container.register(.singleton) { Service() }
        container.register { GenericHost(1) }
        container.register { GenericHost("text") }

        let numbers: GenericHost<Int> = try container.resolve()
        let texts: GenericHost<String> = try container.resolve()

        #expect(numbers.service === texts.service)
        #expect(numbers.service != nil && numbers.extra == 1 && texts.extra == "text")
    }

    @Test func boxesHeldAsAnyOrOptionalAreStillInjected() throws {
        container.register(.singleton) { Service() }
        container.register { HiddenBoxes() }

        let host: HiddenBoxes = try container.resolve()
        let service: Service = try container.resolve()

        #expect(host.services().allSatisfy { $0 === service })
    }
}
