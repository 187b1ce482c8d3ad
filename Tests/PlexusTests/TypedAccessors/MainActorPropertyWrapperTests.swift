import Plexus
import PlexusTesting
import Testing

@MainActor private final class CatalogModel {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

extension DependencyContainer {
    fileprivate var catalogModel: MainActorFactory<CatalogModel> {
        self { @MainActor in CatalogModel(serial: 1) }.singleton
    }
}

/// A main-actor screen whose properties come from a main-actor accessor.
@MainActor private final class CatalogScreen {
    @Inject var model: CatalogModel
    @LazyInject var lazyModel: CatalogModel

    init(container: DependencyContainer) {
        _model = Inject(\.catalogModel, container: container)
        _lazyModel = LazyInject(\.catalogModel, container: container)
    }
}

@Suite(.silencingPlexusLogs) struct MainActorPropertyWrapperTests {
    @Test @MainActor func injectTakesAMainActorAccessor() {
        let container = DependencyContainer()
        let screen = CatalogScreen(container: container)
        #expect(screen.model === container.catalogModel())
    }

    @Test @MainActor func lazyInjectTakesAMainActorAccessorAndResolvesOnFirstRead() {
        let container = DependencyContainer()
        let screen = CatalogScreen(container: container)
        #expect(screen.lazyModel === screen.model)
        #expect(screen.lazyModel === screen.lazyModel)
    }
}
