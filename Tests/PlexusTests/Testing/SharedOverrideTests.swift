import Foundation
import Plexus
import PlexusTesting
import Testing

/// What a test's own container says about itself, read through `DependencyContainer.shared`.
private struct Owner: Sendable {
    let id: Int
}

extension DependencyContainer {
    fileprivate var owner: Factory<Owner> { self { Owner(id: -1) }.singleton }
}

/// Reads `DependencyContainer.shared` and checks that it is `expected`, by identity and by what it resolves.
private func sharedIs(_ expected: DependencyContainer, id: Int) -> Bool {
    let shared = DependencyContainer.shared
    let owner = try? shared.resolve() as Owner
    return shared === expected && owner?.id == id && shared.owner().id == id
}

@Suite(.silencingPlexusLogs) struct SharedOverrideTests {
    /// Forty tests in parallel (Swift Testing runs the cases of a parameterized test in parallel), each with its
    /// own shared container, checking many times, across suspension points and in child tasks.
    @Test(arguments: 0..<40)
    func parallelTestsEachSeeOnlyTheirOwnSharedContainer(id: Int) async throws {
        let container = DependencyContainer(name: "test \(id)")
        container.register(.singleton) { Owner(id: id) }
        container.owner.replace { Owner(id: id) }
        await DependencyContainer.withShared(container) {
            for round in 0..<25 {
                #expect(sharedIs(container, id: id), "round \(round)")
                await Task.yield()
                #expect(sharedIs(container, id: id), "after yield, round \(round)")
                await resumedFromAnotherThread()
                #expect(sharedIs(container, id: id), "after a resume from another thread, round \(round)")
            }
            let seen = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        await Task.yield()
                        return sharedIs(container, id: id)
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(seen == Array(repeating: true, count: 8))
            async let child = Task { sharedIs(container, id: id) }.value
            #expect(await child)
        }
        #expect(DependencyContainer.shared !== container)
    }

    @Test func theProcessWideContainerIsUntouchedByOverrides() {
        let before = DependencyContainer.shared
        DependencyContainer.withShared(DependencyContainer()) {
            DependencyContainer.shared.register { Owner(id: 7) }
        }
        #expect(DependencyContainer.shared === before)
        #expect(DependencyContainer.shared.owner().id != 7)
    }

    @Test func synchronousFormReturnsTheBodysValue() throws {
        let container = DependencyContainer()
        container.register { Owner(id: 3) }
        let owner = try DependencyContainer.withShared(container) { try DependencyContainer.shared.resolve() as Owner }
        #expect(owner.id == 3)
    }

    @Test func innermostOverrideWinsAndTheOuterComesBack() {
        let outer = DependencyContainer()
        let inner = DependencyContainer()
        DependencyContainer.withShared(outer) {
            DependencyContainer.withShared(inner) {
                #expect(DependencyContainer.shared === inner)
            }
            #expect(DependencyContainer.shared === outer)
        }
    }

    @Test func errorsFromTheBodyPropagateAndEndTheOverride() {
        struct Failure: Error {}
        let container = DependencyContainer()
        #expect(throws: Failure.self) {
            try DependencyContainer.withShared(container) { throw Failure() }
        }
        #expect(DependencyContainer.shared !== container)
    }

    @Test func threadsStartedInsideTheBodySeeTheProcessWideContainer() {
        let container = DependencyContainer()
        let seen = Collected<Bool>()
        DependencyContainer.withShared(container) {
            let done = DispatchSemaphore(value: 0)
            Thread {
                seen.append(DependencyContainer.shared === container)
                done.signal()
            }.start()
            DispatchQueue.global().async {
                seen.append(DependencyContainer.shared === container)
                done.signal()
            }
            // Generous: under ThreadSanitizer, with every suite running in parallel, the global queue can start late.
            _ = done.wait(timeout: .now() + 120)
            _ = done.wait(timeout: .now() + 120)
        }
        #expect(seen.values == [false, false])
    }

    @Test func unstructuredTasksInheritTheOverrideAndDetachedTasksDoNot() async {
        let container = DependencyContainer()
        await DependencyContainer.withShared(container) {
            let inherited = await Task { DependencyContainer.shared === container }.value
            let detached = await Task.detached { DependencyContainer.shared === container }.value
            #expect(inherited)
            #expect(!detached)
        }
    }

    @Test func hasSharedContainerTypesSeeTheOverride() {
        struct Screen: HasSharedContainer {}
        let container = DependencyContainer()
        DependencyContainer.withShared(container) {
            #expect(Screen.container === container)
            #expect(Screen().container === container)
        }
    }
}
