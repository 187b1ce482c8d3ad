#!/usr/bin/env bash
# Writes Sources/Scenarios/RegisteredTypes.swift: 300 distinct classes and, per contender, one registration of each,
# as an app registers its types (each a call site of its own, specialized for its type). Run from Benchmarks/ after
# changing the count or the registration forms.
set -euo pipefail
cd "$(dirname "$0")/.."
count=300
out=Sources/Scenarios/RegisteredTypes.swift
{
    echo "// Written by Scripts/registered-types.sh: edit that script, not this file."
    echo "// swift-format-ignore-file"
    echo "import Plexus"
    echo "import Swinject"
    echo
    echo "/// How many distinct types \`RegisteredTypes.swift\` declares and registers."
    echo "public let registeredTypeCount = $count"
    echo
    for ((i = 0; i < count; i++)); do echo "final class Registered$i {}"; done
    echo
    echo "/// One Plexus registration per type, in order: \`register { RegisteredN() }\`."
    echo "let plexusTypeRegistrations: [@Sendable (DependencyContainer) -> Void] = ["
    for ((i = 0; i < count; i++)); do echo "    { \$0.register { Registered$i() } },"; done
    echo "]"
    echo
    echo "/// One Swinject registration per type, in order."
    echo "let swinjectTypeRegistrations: [@Sendable (Swinject.Container) -> Void] = ["
    for ((i = 0; i < count; i++)); do echo "    { \$0.register(Registered$i.self) { _ in Registered$i() } },"; done
    echo "]"
    echo
    echo "/// One insert per type into a dictionary of closures by type, in order: the floor."
    echo "let handTypeRegistrations: [@Sendable (inout [ObjectIdentifier: () -> AnyObject]) -> Void] = ["
    for ((i = 0; i < count; i++)); do echo "    { \$0[ObjectIdentifier(Registered$i.self)] = { Registered$i() } },"; done
    echo "]"
} >"$out"
echo "wrote $out"
