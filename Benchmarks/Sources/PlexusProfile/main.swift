// Performs one scenario for one contender under valgrind's callgrind, like `PlexusCompare --profile`, but built
// without swift-dependencies, so that ./guard needs only a short build from a clean clone.
//
//     PlexusProfile SCENARIO/CONTENDER [--count N]
//     PlexusProfile --pairs                         (every scenario/contender this executable performs)
//     PlexusProfile --hold CONTENDER [--count N]    (registers N distinct definitions and keeps them: ./heap)
//     PlexusProfile --hold plexus-accessors [--count N]   (N typed accessors' declared defaults, used once)
//     PlexusProfile --hold plexus-string-tags [--count N] (N keyed definitions tagged like accessors' keys)
//     PlexusProfile --hold plexus-parameter-failures [--count N]  (a singleton ParameterFactory threw for N ids)
//     PlexusProfile --hold CONTENDER-types [--count N]  (N ≤ 300 distinct types registered once each: ./registration)
//     PlexusProfile --hold CONTENDER-capturing [--count N]  (N tagged definitions whose factories capture a value)
//     PlexusProfile --launch CONTENDER [--count 0|1]  (a fresh process's first resolves: ./launch)
//     PlexusProfile --launch plexus-no-inject [--count 0|1]  (the same with auto-injection and Resolvable off)

import Foundation
import Scenarios

var target: String?
var hold: String?
var launchContender: String?
var count = 100_000
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = Int(arguments.next() ?? "") ?? count
    case "--hold": hold = arguments.next()
    case "--launch": launchContender = arguments.next()
    case "--pairs":
        for pair in Scenario.pairs(of: Scenario.all()) { print(pair) }
        exit(0)
    default: target = argument
    }
}
if let launchContender {
    // Nothing else runs before it: the first resolves of this process are the row's.
    let made: AnyObject? =
        switch (launchContender, count) {
        case (_, 0): nil
        case ("plexus-no-inject", _): launch(.plexus, optedOut: true)
        default: Contender(rawValue: launchContender).flatMap { launch($0) }
        }
    withExtendedLifetime(made) { exit(count == 0 || made != nil ? 0 : 1) }
}
if let hold {
    // Kept to the end of the process, where the heap profiler counts what is still allocated.
    let kept: Any? =
        switch hold {
        case "plexus-accessors": holdAccessorDefaults(count: count)
        case "plexus-string-tags": holdStringTaggedDefinitions(count: count)
        case "plexus-parameter-failures": holdParameterFailures(count: count)
        case let name where name.hasSuffix("-types"):
            Contender(rawValue: String(name.dropLast(6))).flatMap { holdTypes($0, count: count) }
        case let name where name.hasSuffix("-capturing"):
            Contender(rawValue: String(name.dropLast(10))).flatMap { holdCapturing($0, count: count) }
        default: Contender(rawValue: hold).flatMap { holdDefinitions($0, count: count) }
        }
    withExtendedLifetime(kept) { exit(0) }
}
guard let target, try Scenario.profile(target, count: count, in: Scenario.all()) else {
    FileHandle.standardError.write(Data("usage: PlexusProfile SCENARIO/CONTENDER [--count N] (see --pairs)\n".utf8))
    exit(64)
}
