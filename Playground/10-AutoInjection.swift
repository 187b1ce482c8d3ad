import Plexus

private protocol Api: AnyObject {}
private final class HTTPApi: Api {}

private final class Analytics {}

private final class FeatureFlags {
    let variant: String
    init(variant: String) { self.variant = variant }
}

private class BaseScreen {
    @Injected var api: Api?
}

private final class Dashboard: BaseScreen {
    @Injected(required: false) var analytics: Analytics?
    @Injected(tag: "beta") var flags: FeatureFlags?
    let plainBox = Injected<Api>()
}

private final class NeedsAnalytics {
    @Injected var analytics: Analytics?
}

// A presenter holds its view; the view points back weakly.
private final class ListPresenter {
    @Injected var view: ListView?
}

private final class ListView {
    @InjectedWeak var presenter: ListPresenter?
}

@MainActor
func autoInjection() throws {
    show("@Injected and @InjectedWeak properties are filled after the factory returns, with no hook to write.")
    let container = DependencyContainer()
    container.register { HTTPApi() as Api }
    container.register(tag: "beta") { FeatureFlags(variant: "beta") }
    container.register { FeatureFlags(variant: "stable") }
    container.register { Dashboard() }

    let dashboard: Dashboard = try container.resolve()
    check(dashboard.api != nil, "@Injected var api: Api? is set, also when declared in a superclass")
    check(dashboard.flags?.variant == "beta", "@Injected(tag: \"beta\") resolves with that tag")
    check(dashboard.analytics == nil, "@Injected(required: false) stays nil when its type is not registered")
    check(dashboard.plainBox.value != nil, "a plain Injected<Api>() stored property is filled too (read .value)")

    container.register { NeedsAnalytics() }
    let error = caught { try container.resolve() as NeedsAnalytics }
    if case .autoInjectionFailed(let label, _, _)? = error as? ResolutionError {
        show("\(error!)")
        check(label == "analytics", "a required @Injected property that cannot be resolved throws autoInjectionFailed")
    } else {
        check(false, "a missing required property throws autoInjectionFailed (got \(String(describing: error)))")
    }

    container.register { ListPresenter() }
    container.register { ListView() }
    let presenter: ListPresenter = try container.resolve()
    check(
        presenter.view?.presenter === presenter,
        "@InjectedWeak closes a cycle without a retain cycle: presenter.view.presenter === presenter")

    let manual = DependencyContainer(autoInjectProperties: false)
    manual.register { HTTPApi() as Api }
    manual.register(tag: "beta") { FeatureFlags(variant: "beta") }
    manual.register { Dashboard() }
    let untouched: Dashboard = try manual.resolve()
    check(untouched.api == nil, "DependencyContainer(autoInjectProperties: false) leaves the properties nil")
    manual.register { Dashboard() }.autoInjectingProperties()
    let injected: Dashboard = try manual.resolve()
    check(injected.api != nil, "autoInjectingProperties() turns it back on for one definition")
}
