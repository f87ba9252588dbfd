// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets for gesture-bridge, kept out of the main package so that building or
/// testing the bridge never builds them. Each target is only the entry point: the check of one
/// input lives in the test kit (`FuzzTarget` in Tests/GestureTestKit/Fuzzing), which the
/// regression tests of `swift test` run on every kept input too.
///
/// Build and run with `scripts/fuzz` (it passes `--sanitize fuzzer`: without it the targets have
/// no `main` and do not link).
let package = Package(
    name: "gesture-bridge-fuzz",
    dependencies: [
        // Named so that the product reference does not depend on what the checkout folder is called.
        .package(name: "gesture-bridge", path: ".."),
    ],
    targets: [
        /// The config loader: bytes as config text.
        .executableTarget(name: "FuzzConfig", dependencies: [.product(name: "GestureTestKit", package: "gesture-bridge")]),
        /// The trace reader (and writer, and replay): bytes as a trace.
        .executableTarget(name: "FuzzTrace", dependencies: [.product(name: "GestureTestKit", package: "gesture-bridge")]),
        /// The engine through the pipeline: bytes decoded into bindings, thresholds and input.
        .executableTarget(name: "FuzzEngine", dependencies: [.product(name: "GestureTestKit", package: "gesture-bridge")]),
    ],
    swiftLanguageModes: [.v6]
)

// The same strictness as the main package's targets.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
