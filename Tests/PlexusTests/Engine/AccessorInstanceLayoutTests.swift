import Plexus
import Testing

// A typed accessor moves its instance through a six-word buffer on the caller's stack when the instance fits (a
// reference, an existential, a small struct) and through a temporary allocation otherwise (larger, or aligned beyond
// a word). These accessors cover both sides of that line, for every storage, the first use and later ones.

private protocol Greeter: Sendable {
    func greet() -> String
}

private protocol Tagged: Sendable {
    var tag: Int { get }
}

/// A value whose existential (`any Greeter & Tagged`) takes six words: three inline, the type and two witness tables.
private struct InlineGreeter: Greeter, Tagged {
    let name: String
    let tag: Int
    func greet() -> String { "hello \(name)" }
}

/// Seven words: one more than the stack buffer holds.
private struct Wide: Sendable, Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6
    var g: String
}

/// Aligned to 16 bytes, beyond the buffer's word alignment.
private struct Aligned: Sendable, Equatable {
    var lanes: SIMD4<Float>
}

private final class LayoutCounter: Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}

private enum NamespaceLayouts {}

extension DependencyContainer {
    fileprivate var greeter: Factory<any Greeter & Tagged> { self { InlineGreeter(name: "plexus", tag: 6) } }
    fileprivate var wide: Factory<Wide> { self { Wide(g: "seven") } }
    fileprivate var sharedWide: Factory<Wide> { self { Wide(g: "kept") }.singleton }
    fileprivate var aligned: Factory<Aligned> { self { Aligned(lanes: SIMD4(1, 2, 3, 4)) } }
    fileprivate var cachedAligned: Factory<Aligned> { self { Aligned(lanes: SIMD4(5, 6, 7, 8)) }.cached }
    fileprivate var counter: Factory<LayoutCounter> { self { LayoutCounter(value: 42) }.shared }
    fileprivate var layouts: Namespace<NamespaceLayouts> { namespace() }
}

extension Namespace<NamespaceLayouts> {
    fileprivate var wide: Factory<Wide> { resolve { Wide(g: "in a namespace") } }
    fileprivate var greeter: SingletonFactory<any Greeter & Tagged> {
        get { resolve { InlineGreeter(name: "ns", tag: 7) } }
        set { inject(newValue) }
    }
}

@Suite struct AccessorInstanceLayoutTests {
    @Test func instancesThatFitTheStackBufferArriveWhole() throws {
        #expect(MemoryLayout<any Greeter & Tagged>.size == 48)
        let container = DependencyContainer()
        for _ in 0..<3 {
            let greeter = container.greeter()
            #expect(greeter.greet() == "hello plexus")
            #expect(greeter.tag == 6)
            #expect(try container.greeter.resolve().tag == 6)
            #expect(container.counter().value == 42)
        }
    }

    @Test func largerInstancesArriveWholeThroughATemporaryAllocation() throws {
        #expect(MemoryLayout<Wide>.size > 48)
        let container = DependencyContainer()
        for _ in 0..<3 {
            #expect(container.wide() == Wide(g: "seven"))
            #expect(try container.wide.resolve() == Wide(g: "seven"))
            #expect(container.sharedWide() == Wide(g: "kept"))
            #expect(container.layouts.wide() == Wide(g: "in a namespace"))
        }
    }

    @Test func overAlignedInstancesArriveWhole() throws {
        #expect(MemoryLayout<Aligned>.alignment > MemoryLayout<Int>.alignment)
        let container = DependencyContainer()
        for _ in 0..<3 {
            #expect(container.aligned().lanes == SIMD4(1, 2, 3, 4))
            #expect(try container.cachedAligned.resolve().lanes == SIMD4(5, 6, 7, 8))
        }
    }

    @Test func overridesOfEitherLayoutReplaceTheDefault() {
        let container = DependencyContainer()
        #expect(container.wide().g == "seven")
        container.wide.replace { Wide(a: 0, g: "replaced") }
        #expect(container.wide() == Wide(a: 0, g: "replaced"))
        container.greeter.replace { InlineGreeter(name: "override", tag: 9) }
        #expect(container.greeter().greet() == "hello override")
        #expect(container.layouts.greeter().tag == 7)
        container.layouts.greeter = .single { InlineGreeter(name: "assigned", tag: 8) }
        #expect(container.layouts.greeter().tag == 8)
    }

    @Test func anAccessorValueKeepsItsContainer() {
        // The accessor holds its container strongly: a value that outlives every other reference still resolves.
        let accessor = DependencyContainer().wide
        #expect(accessor() == Wide(g: "seven"))
        let counter = DependencyContainer().counter
        #expect(counter().value == 42)
    }
}
