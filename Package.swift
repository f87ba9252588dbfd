// swift-tools-version: 6.1
import PackageDescription

/// gesture-bridge: X11 gestures from touchscreens, touchpads and mice.
///
/// Modules, top to bottom (dependencies only point down):
/// - `gesture-bridge`: the executable — argument parsing, logging, composition per command.
/// - `BridgeApp`: the app above the adapters — the daemon's loop, the observers of a run.
/// - `X11Backend`: the only importer of `CX11` — capture, grabs, XTest/EWMH performer, doctor.
/// - `BridgeCore`: traces, reports, the pipeline (engine → bindings → performer) and its ports.
/// - `GestureConfig`: the TOML config, its validation with positions, typed actions and keysyms.
/// - `TOML`: a TOML 1.0 parser that keeps the position of every key and value; standard library only.
/// - `GestureEngine`: recognizers and arbitration; standard library only.
/// - `POSIX`: system calls through swift-system, `EINTR` retried, failures as `SystemError`.
let package = Package(
    name: "gesture-bridge",
    products: [
        .executable(name: "gesture-bridge", targets: ["gesture-bridge"]),
        .library(name: "GestureEngine", targets: ["GestureEngine"]),
        .library(name: "GestureTestKit", targets: ["GestureTestKit"]),
        // For the conformance decoder in Benchmarks/ (scripts/toml-conformance).
        .library(name: "TOML", targets: ["TOML"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .target(name: "GestureEngine"),
        .target(name: "POSIX", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "TOML"),
        .target(name: "GestureConfig", dependencies: ["GestureEngine", "TOML", "POSIX"]),
        .target(name: "CLinux"),
        .target(name: "BridgeCore", dependencies: ["GestureEngine", "GestureConfig", "POSIX", "CLinux"]),
        .systemLibrary(name: "CX11", pkgConfig: "x11 xi xtst xscrnsaver xrandr xext xrender xfixes xft"),
        .target(
            name: "X11Backend",
            dependencies: ["CX11", "CLinux", "BridgeCore", "GestureConfig", "GestureEngine", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "BridgeApp",
            dependencies: ["BridgeCore", "GestureConfig", "GestureEngine", "X11Backend", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "gesture-bridge",
            dependencies: [
                "GestureEngine", "GestureConfig", "BridgeCore", "X11Backend", "BridgeApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the tests and the benchmarks share: the input script and scenario builder, the
        // recording performer and arbiter, seeded randomness, product and source-tree lookup.
        .target(name: "GestureTestKit", dependencies: ["GestureEngine", "GestureConfig", "BridgeCore"], path: "Tests/GestureTestKit"),
        .testTarget(name: "GestureEngineTests", dependencies: ["GestureEngine", "GestureTestKit"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureEngine", "GestureTestKit", "TOML"]),
        .testTarget(name: "BridgeCoreTests", dependencies: ["BridgeCore", "GestureConfig", "GestureEngine", "GestureTestKit"]),
        /// The runner for tests that start a program and wait for it (Foundation, unlike GestureTestKit).
        .target(name: "ProcessTestKit", path: "Tests/ProcessTestKit"),
        .testTarget(name: "CLITests", dependencies: ["gesture-bridge", "GestureTestKit", "ProcessTestKit"]),
        .testTarget(name: "X11BackendTests", dependencies: ["X11Backend", "BridgeCore", "GestureConfig", "GestureEngine", "GestureTestKit", "LogTestKit", "ProcessTestKit", "gesture-bridge"]),
        /// A log handler that keeps what was logged, for tests of what a person would read.
        .target(name: "LogTestKit", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Tests/LogTestKit"),
        .testTarget(
            name: "BridgeAppTests",
            dependencies: ["BridgeApp", "BridgeCore", "GestureConfig", "GestureEngine", "GestureTestKit", "LogTestKit", .product(name: "Logging", package: "swift-log")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Stricter than the language mode alone, as the model packages build (swift-log, swift-nio):
// `any` spelled out for existentials, members used only from modules the file imports, and
// imports internal unless a public declaration needs them (`public import`).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
