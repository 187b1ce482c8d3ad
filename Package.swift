// swift-tools-version:6.0
import Foundation
import PackageDescription

// `PLEXUS_CHECK_INVARIANTS=1 swift test` builds the engine with its data structures checked after every change
// (`Sources/Plexus/Engine/Invariants.swift`); CI's AddressSanitizer run sets it. Off in every other build.
let engineSettings: [SwiftSetting] =
    ProcessInfo.processInfo.environment["PLEXUS_CHECK_INVARIANTS"] == nil ? [] : [.define("PLEXUS_CHECK_INVARIANTS")]

let package = Package(
    name: "Plexus",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Plexus", targets: ["Plexus"]),
        // Swift Testing traits and helpers for apps' tests; the `Plexus` product never imports `Testing`.
        .library(name: "PlexusTesting", targets: ["PlexusTesting"]),
        // Factory's spellings and semantics: `import PlexusFactoryKit` replaces `import FactoryKit`.
        .library(name: "PlexusFactoryKit", targets: ["PlexusFactoryKit"]),
        // Factory's test trait: `import PlexusFactoryTesting` replaces `import FactoryTesting`.
        .library(name: "PlexusFactoryTesting", targets: ["PlexusFactoryTesting"]),
    ],
    targets: [
        // The engine's maps and its protocol models (Promela, checked by `.ci/spin`) are not part of the build.
        .target(
            name: "Plexus", dependencies: ["PlexusCore"],
            exclude: ["Engine/README.md", "Engine/Graph/README.md", "Engine/Model"], swiftSettings: engineSettings),
        // The engine's unsafe core: the Swift homes of the C layer (the lock and its reader bias, hazard marks, the
        // calling thread, the process-wide atomics), the only library code that calls PlexusSystem. `.ci/fence` keeps
        // it so, not the target boundary: PlexusSystem's module map reaches Plexus's compile too. Package access
        // throughout: what Plexus inlines is `@inlinable package` in a `@usableFromInline package` type. Not a
        // product, and nothing of it public; imported `internal` by `Plexus` (`package` by Engine/CoreNames.swift,
        // which names core types for the products), so no product's public API shows it
        // (Sources/Plexus/Engine/README.md, "The core target").
        .target(name: "PlexusCore", dependencies: ["PlexusSystem"], swiftSettings: engineSettings),
        // Atomics, thread-locals and operating-system calls Swift cannot reach portably; called by PlexusCore, and by
        // PlexusTests (StackDepthTests reads `plexus_frame_address`).
        .target(name: "PlexusSystem"),
        .target(name: "PlexusTesting", dependencies: ["Plexus"]),
        .target(name: "PlexusFactoryKit", dependencies: ["Plexus"]),
        .target(name: "PlexusFactoryTesting", dependencies: ["PlexusFactoryKit"]),
        .executableTarget(name: "PlexusTour", dependencies: ["Plexus", "PlexusFactoryKit"], path: "Playground"),
        // PlexusCore too: `Engine/CoreTypeTests`, `Engine/ReferenceContractExitTests` and
        // `Engine/InstanceStorageContractTests` check the core's types, and `engineSettings` the contracts they check
        // only in builds that check invariants.
        .testTarget(
            name: "PlexusTests", dependencies: ["Plexus", "PlexusCore", "PlexusSystem", "PlexusTesting"],
            swiftSettings: engineSettings),
        .testTarget(name: "PlexusFactoryKitTests", dependencies: ["PlexusFactoryKit", "PlexusFactoryTesting", "Plexus"]),
    ],
    swiftLanguageModes: [.v6]
)
