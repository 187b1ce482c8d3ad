import Foundation
import Plexus

private final class Formatter {}
private final class Router {}
private final class Clock {}
private final class Metrics {}
private final class Session {}

/// A screen whose presenter and view both need a router.
private final class Screen {
    let presenterRouter: Router
    let viewRouter: Router
    let firstFormatter: Formatter
    let secondFormatter: Formatter
    init(presenterRouter: Router, viewRouter: Router, firstFormatter: Formatter, secondFormatter: Formatter) {
        self.presenterRouter = presenterRouter
        self.viewRouter = viewRouter
        self.firstFormatter = firstFormatter
        self.secondFormatter = secondFormatter
    }
}

@MainActor
func scopes() throws {
    let container = DependencyContainer()
    container.register(.unique) { Formatter() }
    container.register(.shared) { Router() }
    container.register { c in
        Screen(
            presenterRouter: try c.resolve(), viewRouter: try c.resolve(),
            firstFormatter: try c.resolve(), secondFormatter: try c.resolve())
    }

    let screen: Screen = try container.resolve()
    let formatterA: Formatter = try container.resolve()
    let formatterB: Formatter = try container.resolve()
    check(
        formatterA !== formatterB && screen.firstFormatter !== screen.secondFormatter,
        ".unique: every resolve calls the factory (a !== b, even inside one graph)")

    let routerA: Router = try container.resolve()
    let routerB: Router = try container.resolve()
    check(
        screen.presenterRouter === screen.viewRouter && routerA !== routerB,
        ".shared: one instance per resolution graph (=== inside one resolve, !== across two)")

    let clocks = Locked(0)
    container.register(.singleton) { () -> Clock in
        clocks.increment()
        return Clock()
    }
    let clockA: Clock = try container.resolve()
    let clockB: Clock = try container.resolve()
    check(clockA === clockB && clocks.value == 1, ".singleton: one instance for the container (clockA === clockB)")
    container.register(.singleton) { Clock() }
    let clockC: Clock = try container.resolve()
    check(clockC !== clockA, ".singleton: registering Clock again replaces the definition and its instance (!==)")

    let metricsMade = Locked(0)
    container.register(.eagerSingleton) { () -> Metrics in
        metricsMade.increment()
        return Metrics()
    }
    try container.bootstrap()
    check(metricsMade.value == 1, ".eagerSingleton: bootstrap() creates it before anyone asks")
    let metricsA: Metrics = try container.resolve()
    let metricsB: Metrics = try container.resolve()
    check(metricsA === metricsB && metricsMade.value == 1, ".eagerSingleton: then it is a singleton (===, made once)")

    let sessions = Locked(0)
    container.register(.weakSingleton) { () -> Session in
        sessions.increment()
        return Session()
    }
    weak var watcher: Session?
    do {
        let held: Session = try container.resolve()
        let again: Session = try container.resolve()
        watcher = held
        check(held === again, ".weakSingleton: the same instance while something outside holds it (===)")
    }
    check(watcher == nil, ".weakSingleton: the container does not keep it alive once the last outside reference goes")
    let fresh: Session = try container.resolve()
    check(
        sessions.value == 2 && watcher !== fresh,
        ".weakSingleton: the next resolve makes a new one (factory called \(sessions.value) times)")

    let shared = DependencyContainer()
    let slowClocks = Locked(0)
    shared.register(.singleton) { () -> Clock in
        slowClocks.increment()
        Thread.sleep(forTimeInterval: 0.05)
        return Clock()
    }
    let results = Locked<[ObjectIdentifier]>([])
    let group = DispatchGroup()
    for _ in 0..<8 {
        DispatchQueue.global().async(group: group) {
            if let clock = try? shared.resolve() as Clock {
                results.update { $0.append(ObjectIdentifier(clock)) }
            }
        }
    }
    let finished = group.wait(timeout: .now() + 30) == .success
    check(
        finished && results.value.count == 8 && Set(results.value).count == 1 && slowClocks.value == 1,
        "8 threads resolving a slow singleton at once get one instance, made exactly once")

    // Published singletons and `.unique` definitions are read without the container's lock while nothing is being
    // registered, so threads resolving them do not slow each other down; a registration waits for those reads, and
    // every resolve after it sees the new definition.
    let busy = DependencyContainer()
    busy.register(.singleton) { Clock() }
    let before: Clock = try busy.resolve()
    let resolved = Locked(0)
    let readers = DispatchGroup()
    for _ in 0..<4 {
        DispatchQueue.global().async(group: readers) {
            var count = 0
            for _ in 0..<10_000 where (try? busy.resolve() as Clock) != nil { count += 1 }
            resolved.update { $0 += count }
        }
    }
    busy.register(.singleton) { Clock() }  // while they resolve
    let readersFinished = readers.wait(timeout: .now() + 30) == .success
    let after: Clock = try busy.resolve()
    check(
        readersFinished && resolved.value == 40_000 && after !== before,
        "4 threads resolve a singleton 40,000 times while it is registered again: every resolve gets an instance, and "
            + "the new registration is seen afterwards (!==)")
}
