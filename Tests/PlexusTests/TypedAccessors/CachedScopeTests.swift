import Plexus
import PlexusTesting
import Testing

private final class ImageCache: Sendable {}
private final class Clock: Sendable {}

extension DependencyContainer {
    fileprivate var imageCache: Factory<ImageCache> { self { ImageCache() }.cached }
    fileprivate var permanentClock: Factory<Clock> { self { Clock() }.singleton }
}

@Suite(.silencingPlexusLogs) struct CachedScopeTests {
    let container = DependencyContainer()

    @Test func cachedRegistrationIsReusedUntilTrimmed() throws {
        let counter = Counter()
        container.register(.cached) { () -> ImageCache in
            counter.increment()
            return ImageCache()
        }
        let first: ImageCache = try container.resolve()
        #expect(try container.resolve() as ImageCache === first)
        #expect(counter.count == 1)
        container.trimCaches()
        let second: ImageCache = try container.resolve()
        #expect(second !== first)
        #expect(counter.count == 2)
        #expect(try container.resolve() as ImageCache === second)
    }

    @Test func trimmingKeepsSingletons() throws {
        container.register(.singleton) { Clock() }
        let clock: Clock = try container.resolve()
        let accessorClock = container.permanentClock()
        container.trimCaches()
        #expect(try container.resolve() as Clock === clock)
        #expect(container.permanentClock() === accessorClock)
    }

    @Test func cachedAccessorIsReleasedByTrimming() {
        weak var released: ImageCache?
        do {
            let first = container.imageCache()
            released = first
            #expect(container.imageCache() === first)
        }
        #expect(released != nil)
        container.trimCaches()
        #expect(released == nil)
        #expect(container.imageCache() === container.imageCache())
    }

    @Test func trimmingOneContainerLeavesOthersAlone() {
        let other = DependencyContainer()
        let kept = other.imageCache()
        container.trimCaches()
        #expect(other.imageCache() === kept)
    }

    @Test func cachedScopeDescribesItself() {
        #expect(ComponentScope.cached.description == "cached")
    }
}
