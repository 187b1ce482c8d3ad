// swift-tools-version:6.1
import PackageDescription

// Benchmarks for Plexus against Swinject, swift-dependencies and hand-written wiring. A separate package so that users
// of the library never resolve benchmark dependencies. See `./compare` (the comparison table), `./profile`
// (instruction counts) and `./guard` (the CI allocation and instruction guard).
//
// swift-dependencies (and the swift-syntax it resolves) is used only by `PeerScenarios` and `PlexusCompare`: the
// guard's products (`PlexusBenchmarks`, `PlexusProfile`) do not depend on it, so a clean CI run never compiles it.
let package = Package(
    name: "PlexusBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Plexus", path: ".."),
        // The machine's notes: the MallocInterposer trait is needed (instead of jemalloc) for malloc counts.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        // The scenarios, each built once per contender (hand-written, Swinject, Plexus); shared by every runner.
        .target(
            name: "Scenarios",
            dependencies: [
                .product(name: "Plexus", package: "Plexus"),
                .product(name: "PlexusFactoryKit", package: "Plexus"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        // The swift-dependencies contender of the scenarios where it applies (`@Dependency` reads).
        .target(
            name: "PeerScenarios",
            dependencies: [
                "Scenarios",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        // Times every scenario for the four contenders in one process, interleaved, best of N rounds; `--profile`
        // performs one of them for callgrind (./profile).
        .executableTarget(name: "PlexusCompare", dependencies: ["Scenarios", "PeerScenarios"]),
        // `--profile` alone, without swift-dependencies: what ./guard counts instructions of (a short clean build).
        .executableTarget(name: "PlexusProfile", dependencies: ["Scenarios"]),
        // The same scenarios under package-benchmark, for malloc counts (and its own wall-clock statistics).
        .executableTarget(
            name: "PlexusBenchmarks",
            dependencies: [
                "Scenarios",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/PlexusBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The swift-dependencies contender under package-benchmark, for its malloc counts (./compare only).
        .executableTarget(
            name: "PeerBenchmarks",
            dependencies: [
                "Scenarios",
                "PeerScenarios",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/PeerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
