// swift-tools-version:6.0
import PackageDescription

// An app split into feature modules, each owning a Plexus container, wired with `collaborate(with:)`.
// Depends on the Plexus package two directories up, so it always builds against the working copy.
let package = Package(
    name: "EventsApp",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    dependencies: [
        .package(name: "Plexus", path: "../..")
    ],
    targets: [
        // The data store and the interfaces the feature modules expose to each other.
        .target(name: "Root", dependencies: [.product(name: "Plexus", package: "Plexus")]),
        // The events list screen.
        .target(name: "EventsList", dependencies: ["Root", .product(name: "Plexus", package: "Plexus")]),
        // The "add event" screen.
        .target(name: "AddEvent", dependencies: ["Root", .product(name: "Plexus", package: "Plexus")]),
        // The composition root: links the module containers and runs a short session.
        .executableTarget(
            name: "EventsApp",
            dependencies: ["Root", "EventsList", "AddEvent", .product(name: "Plexus", package: "Plexus")]
        ),
        .testTarget(
            name: "EventsAppTests",
            dependencies: [
                "EventsApp", "Root", "EventsList", "AddEvent", .product(name: "Plexus", package: "Plexus"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
