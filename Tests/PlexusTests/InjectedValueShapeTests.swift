import Plexus
import Testing

// An `@Injected` box keeps its value in a few words of its own, or on the heap when it does not fit (too large, or
// aligned to more than a word). Every shape a user can declare a property as goes in, is read back, replaced, cleared
// and freed, with each object it holds released exactly once, by hand and through a container.

/// Counts the tracked objects alive.
private final class Census: @unchecked Sendable {
    // `@unchecked Sendable` is safe: each test uses its own census on one thread.
    var alive = 0
}

private protocol ClassBound: AnyObject {}
private protocol Named { var name: String { get } }

private class Tracked: ClassBound, Named {
    let census: Census
    let name: String
    init(_ census: Census, _ name: String) {
        (self.census, self.name) = (census, name)
        census.alive += 1
    }
    deinit { census.alive -= 1 }
}

private final class TrackedSubclass: Tracked {}

private final class Generic<Value> {
    let value: Value
    let tracked: Tracked
    init(_ value: Value, _ tracked: Tracked) { (self.value, self.tracked) = (value, tracked) }
}

/// A value of a non-class protocol, wider than the box's words once in an existential.
private struct Labelled: Named {
    let tracked: Tracked
    var name: String { tracked.name }
}

private struct Large {
    let tracked: Tracked
    let numbers: (Int, Int, Int, Int, Int)
}

private struct Aligned {
    let vector: SIMD4<Float>
    let tracked: Tracked
}

private struct Empty {}

/// Puts `first` and then `second` in a box, checking each reads back as `name` gives it, that `first` is released
/// when replaced and `second` when cleared, and that a third value is released with the box.
private func exercise<T>(_ census: Census, _ make: (String) -> T, name: (T) -> String) {
    var box: Injected<T>? = Injected(wrappedValue: nil)
    box?.value = make("first")
    #expect(box?.value.map(name) == "first")
    #expect(census.alive == 1)
    box?.wrappedValue = make("second")
    #expect(box?.value.map(name) == "second")
    #expect(census.alive == 1)
    box?.value = nil
    #expect(box?.value == nil)
    #expect(census.alive == 0)
    box?.value = make("third")
    box = nil
    #expect(census.alive == 0)
}

/// Injects `make()`, registered in a container, into a box twice, and checks what the box holds reads as `name`.
private func inject<T>(_ census: Census, _ make: @escaping @Sendable () -> T, name: (T) -> String) throws {
    let container = DependencyContainer()
    container.register(.unique, factory: make)
    var box: Injected<T>? = Injected<T>()
    try box?.resolve(container)
    try box?.resolve(container)
    #expect(box?.value.map(name) == "injected")
    box = nil
    #expect(census.alive == 0)
}

@Suite struct InjectedValueShapeTests {
    @Test func aClassASubclassAndAGenericClass() throws {
        let census = Census()
        exercise(census, { Tracked(census, $0) }, name: \.name)
        exercise(census, { TrackedSubclass(census, $0) as Tracked }, name: \.name)
        exercise(census, { Generic(7, Tracked(census, $0)) }, name: \.tracked.name)
        try inject(census, { Tracked(census, "injected") }, name: \.name)
    }

    @Test func classBoundAndNonClassProtocolsAndACompositionOfThem() throws {
        let census = Census()
        exercise(census, { Tracked(census, $0) as any ClassBound }, name: { ($0 as! Tracked).name })
        exercise(census, { Labelled(tracked: Tracked(census, $0)) as any Named }, name: \.name)
        exercise(census, { Tracked(census, $0) as any ClassBound & Named }, name: \.name)
        try inject(census, { Labelled(tracked: Tracked(census, "injected")) as any Named }, name: \.name)
        try inject(census, { Tracked(census, "injected") as any ClassBound & Named }, name: \.name)
    }

    @Test func anyAndAnyObject() throws {
        let census = Census()
        exercise(census, { Tracked(census, $0) as Any }, name: { ($0 as! Tracked).name })
        exercise(census, { Tracked(census, $0) as AnyObject }, name: { ($0 as! Tracked).name })
        exercise(
            census, { Large(tracked: Tracked(census, $0), numbers: (1, 2, 3, 4, 5)) as Any },
            name: { ($0 as! Large).tracked.name })
        try inject(census, { Tracked(census, "injected") as Any }, name: { ($0 as! Tracked).name })
    }

    @Test func largeAlignedAndEmptyStructs() throws {
        let census = Census()
        exercise(
            census, { Large(tracked: Tracked(census, $0), numbers: (1, 2, 3, 4, 5)) },
            name: { $0.numbers == (1, 2, 3, 4, 5) ? $0.tracked.name : "lost" })
        exercise(
            census, { Aligned(vector: SIMD4(1, 2, 3, 4), tracked: Tracked(census, $0)) },
            name: { $0.vector == SIMD4(1, 2, 3, 4) ? $0.tracked.name : "lost" })
        let empty = Injected<Empty>(wrappedValue: Empty())
        #expect(empty.value != nil)
        empty.value = Empty()
        empty.value = nil
        #expect(empty.value == nil)
        try inject(
            census, { Aligned(vector: SIMD4(5, 6, 7, 8), tracked: Tracked(census, "injected")) },
            name: { $0.vector == SIMD4(5, 6, 7, 8) ? $0.tracked.name : "lost" })
    }

    @Test func aClosureAndAnOptional() throws {
        let census = Census()
        exercise(
            census,
            { name -> () -> String in
                let tracked = Tracked(census, name)
                return { tracked.name }
            }, name: { $0() })
        exercise(census, { Optional(Tracked(census, $0)) }, name: { $0?.name ?? "nil" })
        let box = Injected<Tracked?>(wrappedValue: nil)
        box.value = .some(nil)
        #expect(box.value != nil)
        #expect(box.value! == nil)
        try inject(census, { Optional(Tracked(census, "injected")) }, name: { $0?.name ?? "nil" })
    }
}
