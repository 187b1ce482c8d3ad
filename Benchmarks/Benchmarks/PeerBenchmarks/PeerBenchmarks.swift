// The swift-dependencies contender of every scenario where it applies, under package-benchmark, named like those of
// PlexusBenchmarks (`unique/dependencies`), for its malloc counts in ./compare. A target of its own so that
// ./guard, which runs only PlexusBenchmarks, never builds swift-dependencies:
//
//     swift package benchmark --target PeerBenchmarks
//
// One measured iteration performs the operation 1,000 times (`scalingFactor: .kilo`), as in PlexusBenchmarks.

import Benchmark
import PeerScenarios
import Scenarios

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(300),
        maxIterations: 200
    )
    for scenario in Scenario.allWithPeers() where scenario.performs(.dependencies) {
        Benchmark("\(scenario.id)/\(Contender.dependencies.rawValue)") { benchmark, runner in
            try runner?.run(benchmark.scaledIterations.count)
        } setup: {
            scenario.runner(for: .dependencies)
        }
    }
}
