import PlexusFactoryKit
import PlexusFactoryTesting
import Testing

private final class Engine {}

extension Container {
    fileprivate var engine: Factory<Engine> { self { Engine() } }
    fileprivate var keptEngine: Factory<Engine> { self { Engine() }.cached }
    fileprivate var registeredByType: Factory<Engine> { self { Engine() } }
}

private struct Car {
    @Injected(\.engine) var engine: Engine
    @LazyInjected(\.engine) var lazyEngine: Engine
    @WeakLazyInjected(\.engine) var weakEngine: Engine?
    @WeakLazyInjected(\.keptEngine) var weakKeptEngine: Engine?
    @DynamicInjected(\.engine) var dynamicEngine: Engine
    @InjectedContainer var container: Container
}

@Suite(.container) struct PropertyWrapperTests {
    @Test func injectedResolvesWhenMadeAndCanBeReplaced() {
        var car = Car()
        let first = car.engine
        let other = Engine()
        car.engine = other
        #expect(car.engine === other)
        car.$engine.resolve()
        #expect(car.engine !== first)
        #expect(car.engine !== other)
    }

    @Test func lazyInjectedResolvesOnFirstRead() {
        let car = Car()
        #expect(car.$lazyEngine.resolvedOrNil() == nil)
        let engine = car.lazyEngine
        #expect(car.$lazyEngine.resolvedOrNil() === engine)
        #expect(car.lazyEngine === engine)
    }

    @Test func weakLazyInjectedIsNilOnceReleased() {
        let car = Car()
        // A unique instance nothing else holds is released at once.
        #expect(car.weakEngine == nil)
        // Kept by the cached scope until the scope lets it go.
        #expect(car.weakKeptEngine != nil)
        Container.shared.keptEngine.reset(.scope)
        #expect(car.weakKeptEngine == nil)
    }

    @Test func dynamicInjectedResolvesOnEveryRead() {
        let car = Car()
        #expect(car.dynamicEngine !== car.dynamicEngine)
        #expect(car.$dynamicEngine.resolve() !== car.dynamicEngine)
    }

    @Test func injectedSeesOverridesRegisteredBeforeItIsMade() {
        let replacement = Engine()
        Container.shared.engine.register { replacement }
        #expect(Car().engine === replacement)
        #expect(Car().container === Container.shared)
    }

    @Test func injectedTypeIsNilWithoutAResolvingContainer() {
        let holder = TypeHolder()
        #expect(holder.engine == nil)
    }

    @Test func globalDependencyFunctionsResolveFromTheSharedContainer() {
        #expect(dependency(\.keptEngine) === Container.shared.keptEngine())
        #expect(dependency(\Container.keptEngine) === Container.shared.keptEngine())
    }
}

private struct TypeHolder {
    @InjectedType var engine: Engine?
}
