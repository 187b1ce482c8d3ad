// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Plexus",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Plexus", targets: ["Plexus"])
    ],
    targets: [
        .target(name: "Plexus", dependencies: ["PlexusSystem"], exclude: ["Internal/Graph/README.md"]),
        // Operating-system calls Swift cannot reach portably (the calling thread's stack bounds).
        .target(name: "PlexusSystem"),
        .executableTarget(name: "PlexusTour", dependencies: ["Plexus"], path: "Playground"),
        .testTarget(name: "PlexusTests", dependencies: ["Plexus"]),
    ],
    swiftLanguageModes: [.v6]
)
