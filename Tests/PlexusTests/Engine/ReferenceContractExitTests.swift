#if PLEXUS_CHECK_INVARIANTS
    import Foundation
    import PlexusCore
    import Testing

    /// An object for the references under test to name.
    private final class Token {}

    /// The contracts of the core's `Borrowed` and `Owned` references, which a build with `PLEXUS_CHECK_INVARIANTS`
    /// checks at each use: a broken one stops the process, naming the contract. Each test runs in a child process (an
    /// exit test); without that build setting there is no check to see, and the suite is not compiled.
    @Suite struct ReferenceContractExitTests {
        @Test func aBorrowedReferenceUsedWhileItsHolderKeepsTheObjectReadsIt() {
            let token = Token()
            let borrowed = Borrowed(token)
            #expect(borrowed.with { $0 === token })
            #expect(borrowed.refers(to: token))
        }

        @Test func aBorrowedReferenceUsedAfterItsObjectIsGoneStopsTheProcess() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var token: Token? = Token()
                let borrowed = Borrowed(token.unsafelyUnwrapped)
                token = nil
                _ = borrowed.with { ObjectIdentifier($0) }
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("used after its holder let it go"))
        }

        @Test func anOwnedReferenceReleasedOnceKeepsItsObjectUntilThen() {
            weak var gone: Token?
            do {
                let owned = Owned(retaining: Token())
                gone = owned.object
                #expect(gone != nil)
                owned.release()
            }
            #expect(gone == nil)
        }

        @Test func anOwnedReferenceReleasedTwiceStopsTheProcess() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let token = Token()
                let owned = Owned(retaining: token)
                let copy = owned
                owned.release()
                copy.release()
                withExtendedLifetime(token) {}
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("released twice"))
        }

        /// The fast step keeps an owned slot as its borrowed word and adopts it again to release it: the adoptions of
        /// one word share the release record of the reference it was borrowed from.
        @Test func anOwnedReferenceAdoptedTwiceFromItsBorrowedWordAndReleasedTwiceStopsTheProcess() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let token = Token()
                let word = Owned(retaining: token).borrowed
                Owned(adopting: word).release()
                Owned(adopting: word).release()
                withExtendedLifetime(token) {}
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("released twice"))
        }

        @Test func anOwnedReferenceUsedAfterItsReleaseStopsTheProcess() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let token = Token()
                let owned = Owned(retaining: token)
                owned.release()
                _ = owned.with { ObjectIdentifier($0) }
                withExtendedLifetime(token) {}
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("used after its release"))
        }
    }
#endif
