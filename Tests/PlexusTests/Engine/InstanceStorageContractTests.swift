#if PLEXUS_CHECK_INVARIANTS
    import PlexusCore
    import Testing

    /// The contract of the storage a resolve writes its instance into, as a checked build enforces it: each breach
    /// stops the process with a message naming the rule. Each test runs in a child process (an exit test); they run
    /// only in builds with `PLEXUS_CHECK_INVARIANTS`, where the checks exist.
    struct InstanceStorageContractTests {
        @Test func writingTwiceStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int.self) { storage in
                    storage.initialize(to: 1)
                    storage.initialize(to: 2)
                }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("Int broke its contract: written twice"))
        }

        @Test func writingAValueOfAnotherTypeStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int.self) { $0.initialize(to: "one") }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("written with a value of String, not of Int"))
        }

        @Test func aTypeErasedWriteOfAnotherTypeStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int.self) { _ = $0.addressToInitialize(as: String.self) }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("written with a value of String, not of Int"))
        }

        /// Storage made for `Int?` holds an `Int?` already: wrapping it again would read it as an `Int`.
        @Test func wrappingAValueThatIsAlreadyTheOptionalStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int?.self) { storage in
                    storage.initialize(to: Int?.some(1))
                    storage.wrapInOptional(Int.self)
                }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("wrapped as Optional<Int>, though it holds a Optional<Int>"))
        }

        @Test func readingBeforeWritingStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int.self) { _ in }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self).contains("read before it was written"))
        }

        @Test func readingAsAnotherTypeStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filled(Int.self) { storage in
                    storage.initialize(to: 1)
                    storage.withInstance(of: UInt.self) { $0 += 1 }
                }
            }
            #expect(String(decoding: message.standardErrorContent, as: UTF8.self).contains("read as UInt, not as Int"))
        }

        @Test func writingAndReportingNothingWrittenStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                _ = InstanceStorage.filledIfWritten(Int.self) { storage in
                    storage.initialize(to: 1)
                    return false
                }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("reported nothing written"))
        }

        @Test func leavingATemporaryInstanceUndestroyedStops() async throws {
            let message = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                InstanceStorage.withTemporary(byteCount: 8, alignment: 8, for: Int.self) { $0.initialize(to: 1) }
            }
            #expect(
                String(decoding: message.standardErrorContent, as: UTF8.self)
                    .contains("a temporary instance was left undestroyed"))
        }

        @Test func theContractHoldsForAWriteThenARead() {
            let value = InstanceStorage.filled(Int.self) { storage in
                storage.initialize(to: 1)
                storage.withInstance(of: Int.self) { $0 += 1 }
            }
            #expect(value == 2)
        }
    }
#endif
