// Every scenario for every contender under package-benchmark, named `<scenario>/<contender>` (for example
// `unique/plexus`), for malloc counts per operation with the MallocInterposer trait:
//
//     swift package benchmark --target PlexusBenchmarks --filter 'unique/.*'
//
// One measured iteration performs the operation 1,000 times (`scalingFactor: .kilo`); package-benchmark divides
// the metrics by that factor, so the reported counts are per operation.

import Benchmark
import Scenarios

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        // Raw counts in exports (histogramSamples), never rounded to thousands: ./compare and ./guard divide them.
        units: [.mallocCountTotal: .count],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(300),
        maxIterations: 200
    )
    for scenario in Scenario.all() {
        // swift-dependencies is not built here (see Package.swift): its runners are not attached, so it is skipped.
        for contender in Contender.allCases where scenario.performs(contender) {
            Benchmark("\(scenario.id)/\(contender.rawValue)") { benchmark, runner in
                try runner?.run(benchmark.scaledIterations.count)
            } setup: {
                scenario.runner(for: contender)
            }
        }
    }
}
