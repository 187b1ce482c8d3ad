import Plexus
import PlexusTesting
import Testing

private protocol PaymentService: AnyObject, Sendable {
    var name: String { get }
}
private final class DefaultPayments: PaymentService {
    let name = "default"
}
private final class ModulePayments: PaymentService {
    let name = "module"
}
private final class AppPayments: PaymentService {
    let name = "app"
}
private final class Logger: Sendable {}
private final class Presenter: Sendable {
    let logger: Logger
    let interactor: Interactor
    init(logger: Logger, interactor: Interactor) {
        self.logger = logger
        self.interactor = interactor
    }
}
private final class Interactor: Sendable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}
private final class Left: Sendable {
    let right: Right
    init(right: Right) { self.right = right }
}
private final class Right: Sendable {
    let left: Left?
    init(left: Left?) { self.left = left }
}
private final class Loop: Sendable {
    let next: Dependent
    init(next: Dependent) { self.next = next }
}
private final class Dependent: Sendable {
    let loop: Loop
    init(loop: Loop) { self.loop = loop }
}

extension DependencyContainer {
    fileprivate enum NamespaceCheckout {}
    fileprivate typealias Checkout = Namespace<NamespaceCheckout>
    fileprivate var checkout: Checkout { namespace() }

    fileprivate var logger: Factory<Logger> { self { Logger() }.shared }
    fileprivate var cachedPayments: Factory<PaymentService> { self { DefaultPayments() }.cached }
    fileprivate var newPayments: Factory<PaymentService> { self { DefaultPayments() } }
    fileprivate var interactor: Factory<Interactor> { self { Interactor(logger: self.logger()) } }
    fileprivate var left: Factory<Left> { self { Left(right: try self.right.resolve()) } }
    fileprivate var right: Factory<Right> { self { Right(left: try self.left.resolve()) }.singleton }
    fileprivate var needsLogger: Factory<Interactor> { self { Interactor(logger: try self.resolve()) } }
    fileprivate var loop: Factory<Loop> { self { Loop(next: try self.resolve()) } }
}

extension DependencyContainer.Checkout {
    fileprivate var payments: SingletonFactory<PaymentService> {
        get { resolve { DefaultPayments() } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorGraphTests {
    let app = DependencyContainer(name: "App")
    let module = DependencyContainer(name: "Checkout")

    @Test func overrideInACollaboratorIsSeen() {
        app.collaborate(with: module)
        module.checkout.payments = .single { ModulePayments() }
        #expect(app.checkout.payments().name == "module")
        #expect(app.checkout.payments() === module.checkout.payments())
    }

    @Test func overrideInACollaboratorMadeAfterFirstUseIsSeen() {
        app.collaborate(with: module)
        #expect(app.checkout.payments().name == "default")
        module.checkout.payments = .single { ModulePayments() }
        #expect(app.checkout.payments().name == "module")
    }

    /// Once no collaborator held an override, the default answers on the fast path; an override made then in a
    /// collaborator, directly or two links away, is still seen at the next call.
    @Test(arguments: [false, true])
    func overrideInACollaboratorMadeAfterRepeatedUseIsSeen(throughAnother: Bool) {
        let middle = link(throughAnother: throughAnother)
        let first = app.checkout.payments()
        for _ in 0..<3 { #expect(app.checkout.payments().name == "default") }
        #expect(app.checkout.payments() === first)
        module.checkout.payments = .single { ModulePayments() }
        #expect(app.checkout.payments().name == "module")
        #expect(app.checkout.payments() === module.checkout.payments())
        module.checkout.payments.reset()
        #expect(app.checkout.payments().name == "default")
        withExtendedLifetime(middle) {}
    }

    /// The same when the override comes with a collaborator added after the default answered on the fast path.
    @Test func aCollaboratorWithAnOverrideAddedAfterRepeatedUseIsSeen() {
        let other = DependencyContainer(name: "Other")
        app.collaborate(with: other)
        for _ in 0..<3 { #expect(app.checkout.payments().name == "default") }
        module.checkout.payments = .single { ModulePayments() }
        app.collaborate(with: module)
        #expect(app.checkout.payments().name == "module")
        withExtendedLifetime(other) {}
    }

    /// An override registered here while an accessor's first call searches the collaborators (it found nothing here
    /// just before) answers the next call: that search remembers nothing for a generation the override moved.
    @Test func anOverrideMadeWhileTheCollaboratorsAreSearchedAnswersTheNextCall() {
        app.collaborate(with: module)
        let app = self.app
        let searches = Counter()
        let observation = EngineTestHooks.observeAccessorSearches { container in
            guard container === app, searches.increment() == 1 else { return }
            app.checkout.payments = .single { ModulePayments() }
        }
        defer { observation.stop() }
        #expect(app.checkout.payments().name == "default")
        #expect(app.checkout.payments().name == "module")
        #expect(searches.count == 1)
    }

    /// Links the app to the module, directly or through a middle container, which the caller keeps.
    private func link(throughAnother: Bool) -> DependencyContainer {
        let middle = DependencyContainer(name: "Middle")
        if throughAnother {
            app.collaborate(with: middle)
            middle.collaborate(with: module)
        } else {
            app.collaborate(with: module)
        }
        return middle
    }

    /// An override in a collaborator answers every call once it is found (later calls follow it on the fast path),
    /// with the collaborator's own singleton, until it is removed there: the declared default then answers.
    @Test(arguments: [false, true])
    func overrideInACollaboratorAnswersRepeatedCallsUntilRemoved(throughAnother: Bool) {
        let middle = link(throughAnother: throughAnother)
        module.checkout.payments = .single { ModulePayments() }
        let first = app.checkout.payments()
        #expect(first.name == "module")
        for _ in 0..<3 { #expect(app.checkout.payments() === first) }
        #expect(module.checkout.payments() === first)
        module.checkout.payments.reset()
        #expect(app.checkout.payments().name == "default")
        #expect(app.checkout.payments() === app.checkout.payments())
        withExtendedLifetime(middle) {}
    }

    /// A new override in the collaborator replaces the one that answered repeated calls.
    @Test(arguments: [false, true])
    func overrideReplacedInACollaboratorAnswersTheNextCall(throughAnother: Bool) {
        let middle = link(throughAnother: throughAnother)
        module.checkout.payments = .single { ModulePayments() }
        for _ in 0..<3 { #expect(app.checkout.payments().name == "module") }
        module.checkout.payments = .single { AppPayments() }
        #expect(app.checkout.payments().name == "app")
        #expect(app.checkout.payments() === module.checkout.payments())
        withExtendedLifetime(middle) {}
    }

    /// An override made in the collaborator between (searched first) after the farther one answered repeated calls.
    @Test func anOverrideInACloserCollaboratorWinsOverAFartherOneThatAnswered() {
        let middle = link(throughAnother: true)
        module.checkout.payments = .single { ModulePayments() }
        for _ in 0..<3 { #expect(app.checkout.payments().name == "module") }
        middle.checkout.payments = .single { AppPayments() }
        #expect(app.checkout.payments().name == "app")
        #expect(app.checkout.payments() === middle.checkout.payments())
    }

    @Test func anOverrideMadeHereWinsOverACollaboratorsThatAnsweredRepeatedCalls() {
        app.collaborate(with: module)
        module.checkout.payments = .single { ModulePayments() }
        for _ in 0..<3 { #expect(app.checkout.payments().name == "module") }
        app.checkout.payments = .single { AppPayments() }
        #expect(app.checkout.payments().name == "app")
        #expect(module.checkout.payments().name == "module")
    }

    @Test func aReleasedCollaboratorsOverrideNoLongerAnswers() {
        var transient: DependencyContainer? = DependencyContainer(name: "Transient")
        weak let released = transient
        app.collaborate(with: transient!)
        transient?.checkout.payments = .single { ModulePayments() }
        for _ in 0..<3 { #expect(app.checkout.payments().name == "module") }
        transient = nil
        #expect(released == nil)
        #expect(app.checkout.payments().name == "default")
    }

    /// A collaborator's `.cached` override, trimmed there after it answered: the next call makes the instance with
    /// the collaborator's factory and keeps it in the collaborator, which then gives the same instance.
    @Test func aTrimmedOverrideInACollaboratorIsMadeAgainAndKeptThere() {
        app.collaborate(with: module)
        module.cachedPayments.replace { ModulePayments() }
        let first = app.cachedPayments()
        #expect(first.name == "module")
        #expect(app.cachedPayments() === first)
        module.trimCaches()
        let second = app.cachedPayments()
        #expect(second.name == "module")
        #expect(second !== first)
        #expect(module.cachedPayments() === second)
        #expect(app.cachedPayments() === second)
    }

    /// A collaborator's unique override makes a new instance with its factory at each call.
    @Test func aUniqueOverrideInACollaboratorMakesAnInstancePerCall() {
        app.collaborate(with: module)
        let made = Counter()
        module.newPayments.replace {
            made.increment()
            return ModulePayments()
        }
        let first = app.newPayments()
        for _ in 0..<3 {
            let next = app.newPayments()
            #expect(next.name == "module")
            #expect(next !== first)
        }
        #expect(made.count == 4)
    }

    @Test func collaborationIsDirectional() {
        app.collaborate(with: module)
        app.checkout.payments = .single { ModulePayments() }
        #expect(module.checkout.payments().name == "default")
    }

    @Test func localOverrideWinsOverACollaborators() {
        app.collaborate(with: module)
        module.checkout.payments = .single { ModulePayments() }
        app.checkout.payments.replace { DefaultPayments() }
        #expect(app.checkout.payments().name == "default")
    }

    @Test func untaggedDefinitionNeverAnswersAnAccessor() throws {
        app.register(.singleton) { ModulePayments() as PaymentService }
        #expect(app.checkout.payments().name == "default")
        #expect(try app.resolve() as PaymentService !== app.checkout.payments())
    }

    @Test func untaggedDefinitionInACollaboratorNeverAnswersAnAccessor() {
        module.register(.singleton) { ModulePayments() as PaymentService }
        app.collaborate(with: module)
        #expect(app.checkout.payments().name == "default")
    }

    @Test func accessorsAndDefinitionsShareASharedInstanceInOneGraph() throws {
        let app = app
        app.register {
            Presenter(logger: try app.resolve(tag: "DependencyContainer.logger"), interactor: app.interactor())
        }
        // The shared logger accessor, overridden by an ordinary definition under its key.
        app.register(.shared, tag: "DependencyContainer.logger") { Logger() }
        let presenter: Presenter = try app.resolve()
        #expect(presenter.logger === presenter.interactor.logger)
    }

    @Test func accessorDefaultSharedAcrossDefinitionsInOneGraph() throws {
        let app = app
        app.register { Presenter(logger: app.logger(), interactor: app.interactor()) }
        let presenter: Presenter = try app.resolve()
        #expect(presenter.logger === presenter.interactor.logger)
        let another: Presenter = try app.resolve()
        #expect(another.logger !== presenter.logger)
    }

    @Test func throwingFormReturnsAnAccessorCycle() {
        let error = #expect(throws: ResolutionError.self) { try app.left.resolve() }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected a circular dependency, got \(String(describing: error))")
            return
        }
        #expect(path.first == path.last)
        #expect(
            path.map(\.tag) == ["DependencyContainer.left", "DependencyContainer.right", "DependencyContainer.left"])
        // Nothing was cached on the way: the container still works once the cycle is broken.
        app.right.replace { Right(left: nil) }
        #expect(app.left().right === app.right())
    }

    @Test func cycleThroughADipStyleDefinitionIsDetected() {
        let app = app
        app.register { Dependent(loop: try app.loop.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try app.loop.resolve() }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected a circular dependency, got \(String(describing: error))")
            return
        }
        #expect(path.count == 3)
    }

    @Test func validateResolvesOverriddenAccessors() throws {
        let module = module
        module.checkout.payments = .single {
            _ = try module.resolve() as Logger
            return ModulePayments()
        }
        #expect(throws: ResolutionError.self) { try module.validate() }
        module.register { Logger() }
        try module.validate()
    }

    @Test func validateResolvesTheDefaultsUsedSoFar() throws {
        #expect(throws: ResolutionError.self) { try app.needsLogger.resolve() }
        #expect(throws: ResolutionError.self) { try app.validate() }
        app.register { Logger() }
        try app.validate()
        #expect(try app.needsLogger.resolve().logger !== app.needsLogger().logger)
    }
}
