// swift-tools-version: 6.1
import PackageDescription

/// Benchmarks for gesture-bridge, kept out of the main package so that building or testing the
/// bridge never resolves or compiles the benchmark tooling.
///
/// Run from this folder: `swift package --disable-sandbox benchmark` (see docs/performance.md).
let package = Package(
    name: "gesture-bridge-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named so that the product reference does not depend on what the checkout folder is called.
        .package(name: "gesture-bridge", path: ".."),
        // Only the malloc interposer: the allocation counts are what these benchmarks guard.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        /// The trace, the bindings and the feeding loop, shared by the benchmarks and the driver.
        .target(
            name: "EngineWorkload",
            dependencies: [
                .product(name: "GestureEngine", package: "gesture-bridge"),
                .product(name: "GestureTestKit", package: "gesture-bridge"),
            ]
        ),
        /// Runs the workload outside the harness, for profilers: `engine-driver replay|idle|stats`.
        .executableTarget(
            name: "engine-driver",
            dependencies: [
                "EngineWorkload",
                .product(name: "GestureEngine", package: "gesture-bridge"),
                .product(name: "GestureTestKit", package: "gesture-bridge"),
            ]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "EngineWorkload",
                .product(name: "GestureEngine", package: "gesture-bridge"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        /// The stroke recognizer's cost per match (16 shapes).
        .executableTarget(
            name: "StrokeBenchmarks",
            dependencies: [
                .product(name: "GestureEngine", package: "gesture-bridge"),
                .product(name: "GestureTestKit", package: "gesture-bridge"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StrokeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        /// The TOML parser as a toml-test decoder, for `scripts/toml-conformance` (docs/design.md, «TOML»).
        .executableTarget(
            name: "toml-decoder",
            dependencies: [.product(name: "TOML", package: "gesture-bridge")]
        ),
        /// The stroke recognizer's accuracy on the generated set, as the tables of docs/performance.md
        /// (`stroke-accuracy`), and the built-in shapes as docs/shapes.svg (`stroke-accuracy shapes-svg`).
        .executableTarget(
            name: "stroke-accuracy",
            dependencies: [
                .product(name: "GestureEngine", package: "gesture-bridge"),
                .product(name: "GestureTestKit", package: "gesture-bridge"),
            ]
        ),
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
