import Foundation
import PlexusCore
import Testing

// The engine's core types (Sources/PlexusCore/) each state a contract; these tests check that each holds, and that
// each contract the core checks stops the process when it is broken. Package access: the core is no product.

@Suite struct FrameStackTests {
    @Test func framesComeBackInnermostLastAcrossGrowth() {
        var stack = FrameStack<Int>()
        for value in 0..<100 { stack.append(value) }
        #expect(stack.count == 100)
        #expect(stack.last == 99)
        #expect(stack[40] == 40)
        #expect(stack.elements == Array(0..<100))
        let (finds73, finds100) = (stack.contains(where: { $0 == 73 }), stack.contains(where: { $0 == 100 }))
        #expect(finds73 && !finds100)
        stack.removeLast()
        #expect(stack.last == 98)
        stack.removeAll()
        #expect(stack.count == 0 && stack.last == nil && stack.indices.isEmpty)
        stack.removeLast()
        #expect(stack.count == 0)
    }

    @Test func aPositionPastTheLastFrameStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            var stack = FrameStack<Int>()
            stack.append(1)
            stack.removeLast()
            _ = stack[0]
        }
    }
}

@Suite struct ConditionLockTests {
    /// What the waiting thread waits for, guarded by the lock.
    private final class Flag: @unchecked Sendable {
        // `@unchecked Sendable` is safe: `isSet` is read and written only inside `lock.withLock`.
        let lock = ConditionLock()
        var isSet = false
    }

    @Test func aWaiterRunsOnOnceTheChangeItWaitsForIsBroadcast() async {
        let flag = Flag()
        let waited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            flag.lock.withLock {
                while !flag.isSet { flag.lock.wait() }
            }
            waited.signal()
        }
        flag.lock.withLock {
            flag.isSet = true
            flag.lock.broadcast()
        }
        #expect(waited.wait(timeout: .now() + 30) == .success)
    }

    #if PLEXUS_CHECK_INVARIANTS
        @Test func aBroadcastWithoutTheLockStopsTheProcess() async {
            await #expect(processExitsWith: .failure) {
                ConditionLock().broadcast()
            }
        }

        /// The lock's own check, before a debug build's error-checking mutex would fail `pthread_cond_wait`.
        @Test func aWaitWithoutTheLockStopsTheProcess() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ConditionLock().wait()
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("called without holding its lock"))
        }
    #endif
}

@Suite struct PinnedTests {
    /// A holder whose first stored property is the value it pins.
    private final class Holder {
        let first: Int
        let second: Int

        init(first: Int, second: Int) {
            (self.first, self.second) = (first, second)
        }
    }

    @Test func anObjectsFirstStoredPropertyAndAStackValueReadBackWhole() {
        let holder = Holder(first: 41, second: 7)
        Pinned.checkFirstStoredProperty(of: holder, is: 41)
        #expect(Pinned<Int>.firstStoredProperty(of: holder).value == 41)
        let key = ["a key with a tag": 1]
        #expect(Pinned.with(key) { $0.value } == key)
    }

    #if DEBUG || PLEXUS_CHECK_INVARIANTS
        /// In a debug build and one that checks invariants (a release build checks nothing here), pinning a property
        /// that is not the first stops the process at the object's initializer, not at a later wrong read.
        @Test func aValueThatIsNotTheFirstStoredPropertyStopsTheProcess() async {
            await #expect(processExitsWith: .failure) {
                Pinned.checkFirstStoredProperty(of: Holder(first: 1, second: 2), is: 2)
            }
        }
    #endif
}
