// swift-tools-version:6.1
import PackageDescription

// Benchmarks for Plexus against Swinject and hand-written wiring. A separate package so that users of the library
// never resolve benchmark dependencies. See `./compare` (the comparison table) and `./guard` (the CI allocation guard).
let package = Package(
    name: "PlexusBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Plexus", path: ".."),
        // The machine's notes: the MallocInterposer trait is needed (instead of jemalloc) for malloc counts.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
    ],
    targets: [
        // The scenarios, each built once per contender (hand-written, Swinject, Plexus); shared by both runners.
        .target(
            name: "Scenarios",
            dependencies: [
                .product(name: "Plexus", package: "Plexus"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        // Times every scenario for the three contenders in one process, interleaved, best of N rounds.
        .executableTarget(name: "PlexusCompare", dependencies: ["Scenarios"]),
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
    ],
    swiftLanguageModes: [.v6]
)
