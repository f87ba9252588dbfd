import Foundation
import GestureTestKit
import Testing

/// The project's Makefile as a user and a packager run it: `make install` into a scratch PREFIX,
/// HOME or DESTDIR, the installed files used for real (the binary with no toolchain in sight,
/// `man -l`, bash completion, `systemd-analyze verify`, `desktop-file-validate`, systemd's
/// autostart generator), `make uninstall`, and `make deb` installed and removed with dpkg in a
/// throwaway root. The tools come from scripts/setup-debian.
enum Packaging {
    static let root = SourceTree.root
    static let buildDirectory = root + "/.build-release"

    struct Run {
        var status: Int32
        var out: String
        var err: String
        var seconds: Double
        var log: String { "exit \(status)\n--- stdout\n\(out)\n--- stderr\n\(err)" }
    }

    /// Runs `arguments` (arguments[0] looked up on PATH) with the test's environment less make's
    /// and the install variables, plus `environment`; output goes through files, so a chatty
    /// command never blocks on a full pipe.
    static func run(_ arguments: [String], environment: [String: String] = [:], clean: Bool = false, directory: String? = nil) throws -> Run {
        var env = clean ? [:] : ProcessInfo.processInfo.environment
        for key in ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "DESTDIR", "PREFIX", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "MANPATH"] {
            env[key] = nil
        }
        // What the tools leave in their temporary directory (SwiftPM's lock files and
        // TemporaryDirectory.*, lintian's caches) goes with the test process's scratch.
        env["TMPDIR"] = childTemporaryDirectory
        env.merge(environment) { $1 }
        let scratch = URL(fileURLWithPath: TestScratch.path("gb-run"))
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Run(
            status: process.terminationStatus,
            out: try String(contentsOf: outURL, encoding: .utf8),
            err: try String(contentsOf: errURL, encoding: .utf8),
            seconds: seconds)
    }

    /// `TMPDIR` for the programs run here: one directory below the test process's scratch.
    static let childTemporaryDirectory: String = {
        let path = TestScratch.path("tmp")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func make(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let result = try run(["make", "--no-print-directory", "-C", root] + arguments, environment: environment)
        print("InstallTests: make \(arguments.joined(separator: " ")): \(String(format: "%.1f", result.seconds)) s")
        return result
    }

    /// The one release build (static Swift runtime, man pages, completions) every test here
    /// installs from. make's timestamps keep the later `make install`s from building again.
    /// Niced: the other suites run beside it, some with X servers and deadlines.
    static let build: Run = {
        do {
            let build = try run(["nice", "-n", "15", "make", "--no-print-directory", "-C", root, "all"])
            print("InstallTests: make all (release build, static Swift runtime): \(String(format: "%.1f", build.seconds)) s")
            return build
        } catch {
            return Run(status: -1, out: "", err: "\(error)", seconds: 0)
        }
    }()

    static func requireBuild() throws {
        let build = Self.build
        try #require(build.status == 0, "make all failed:\n\(build.log)")
    }

    static func temporaryDirectory(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: TestScratch.path("gb-\(name)"))
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Runs `body` with a fresh PREFIX that `make install` has installed into (the release
    /// build made first); the PREFIX is removed afterwards.
    static func withInstall<R>(_ name: String, _ body: (_ prefix: String) throws -> R) throws -> R {
        try requireBuild()
        let prefix = try temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try make(["install", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "\(install.log)")
        return try body(prefix)
    }

    /// Every file and symlink below `directory`, relative to it, sorted.
    static func files(below directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// Everything below `directory`, directories included.
    static func entries(below directory: String) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The subcommands, as the command definitions give them to the manual generator.
    static func subcommands(of binary: String) throws -> [String] {
        let dump = try run([binary, "--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump.log)")
        let json = try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any]
        let command = json?["command"] as? [String: Any]
        let subcommands = command?["subcommands"] as? [[String: Any]] ?? []
        return subcommands.compactMap { $0["commandName"] as? String }
    }

    /// The files an install puts below its PREFIX when PREFIX is neither ~/.local nor /usr.
    static let prefixFiles = [
        "bin/gesture-bridge",
        "etc/xdg/autostart/gesture-bridge.desktop",
        "lib/systemd/user/gesture-bridge.service",
        "share/bash-completion/completions/gesture-bridge",
        "share/doc/gesture-bridge/LICENSE",
        "share/doc/gesture-bridge/README.md",
        "share/doc/gesture-bridge/config.example.toml",
        "share/doc/gesture-bridge/shapes.svg",
        "share/fish/vendor_completions.d/gesture-bridge.fish",
        "share/gesture-bridge/install-manifest",
        "share/man/man1/gesture-bridge.1",
        "share/man/man5/gesture-bridge.toml.5",
        "share/zsh/site-functions/_gesture-bridge",
    ]
}

@Suite("make install, make uninstall, make deb", .serialized)
struct InstallTests {
    @Test func installIntoAPrefixWritesExactlyItsFilesAndUninstallRemovesThemAll() throws {
        try Packaging.requireBuild()
        let prefix = try Packaging.temporaryDirectory("prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }

        let install = try Packaging.make(["install", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "\(install.log)")
        #expect(Packaging.files(below: prefix) == Packaging.prefixFiles)

        let manifest = try Packaging.read(prefix + "/share/gesture-bridge/install-manifest")
        let listed = manifest.split(separator: "\n").filter { $0.hasPrefix("f ") }.map { String($0.dropFirst(2)) }.sorted()
        let expectedListed = Packaging.prefixFiles.map { prefix + "/" + $0 }
        #expect(listed == expectedListed)

        let binary = prefix + "/bin/gesture-bridge"
        let attributes = try FileManager.default.attributesOfItem(atPath: binary)
        let mode = (attributes[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o755)

        // The unit and the autostart entry name the installed binary.
        let unit = try Packaging.read(prefix + "/lib/systemd/user/gesture-bridge.service")
        let unitLines = Set(unit.split(separator: "\n").map(String.init))
        for line in [
            "Type=notify", "ExecStart=\(binary)", "PartOf=graphical-session.target", "After=graphical-session.target",
            "WantedBy=graphical-session.target", "Restart=on-failure", "RestartPreventExitStatus=2 64",
        ] {
            #expect(unitLines.contains(line), "\(line) missing from the unit:\n\(unit)")
        }
        let desktop = try Packaging.read(prefix + "/etc/xdg/autostart/gesture-bridge.desktop")
        let desktopLines = Set(desktop.split(separator: "\n").map(String.init))
        for line in ["Exec=\(binary)", "TryExec=\(binary)", "X-systemd-skip=true", "X-GNOME-Autostart-enabled=true"] {
            #expect(desktopLines.contains(line), "\(line) missing from the autostart entry:\n\(desktop)")
        }
        let example = try Packaging.read(prefix + "/share/doc/gesture-bridge/config.example.toml")
        let defaultConfig = try Packaging.read(SourceTree.path("config/default.toml"))
        #expect(example == defaultConfig)
        // The picture of the shapes, and the installed binary says where it is.
        let picture = prefix + "/share/doc/gesture-bridge/shapes.svg"
        #expect(try Packaging.read(picture) == Packaging.read(SourceTree.path("docs/shapes.svg")))
        let shapes = try Packaging.run([binary, "shapes"])
        #expect(shapes.status == 0 && shapes.out == picture + "\n", "\(shapes.log)")

        // Installing again over it changes nothing, and one uninstall still removes everything.
        let again = try Packaging.make(["install", "PREFIX=\(prefix)"])
        try #require(again.status == 0, "\(again.log)")
        #expect(Packaging.files(below: prefix) == Packaging.prefixFiles)

        let uninstall = try Packaging.make(["uninstall", "PREFIX=\(prefix)"])
        try #require(uninstall.status == 0, "\(uninstall.log)")
        #expect(Packaging.entries(below: prefix) == [])
        #expect(FileManager.default.fileExists(atPath: prefix))
    }

    @Test func theInstalledBinaryRunsWithNoSwiftToolchainInSight() throws {
        try Packaging.requireBuild()
        let prefix = try Packaging.temporaryDirectory("notoolchain")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try Packaging.make(["install", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "\(install.log)")
        let binary = prefix + "/bin/gesture-bridge"

        // Nothing from the toolchain: no PATH, no LD_LIBRARY_PATH, no library of the toolchain's.
        let version = try Packaging.run([binary, "--version"], clean: true)
        let expectedVersion = try CLI.run(["--version"])
        #expect(version.status == 0, "\(version.log)")
        #expect(version.out == expectedVersion.out)
        #expect(!version.out.isEmpty)

        let check = try Packaging.run([binary, "check-config"], environment: ["HOME": prefix], clean: true)
        #expect(check.status == 0, "\(check.log)")
        #expect(check.out.contains("<default config>: valid"))
        let bad = prefix + "/bad.toml"
        try "[[bind]]\ngesture = \"swype\"\naction = \"click left\"\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Packaging.run([binary, "check-config", bad], environment: ["HOME": prefix], clean: true)
        #expect(refused.status == 2, "\(refused.log)")
        #expect(refused.err.contains("\(bad):2:11: "), "\(refused.log)")

        let ldd = try Packaging.run(["ldd", binary], environment: ["PATH": "/usr/bin:/bin"], clean: true)
        try #require(ldd.status == 0, "\(ldd.log)")
        let toolchain = try Self.toolchainDirectory()
        let needed = try Packaging.run(["objdump", "-p", binary])
        let neededLines = needed.out.split(separator: "\n").filter { $0.contains("NEEDED") }.map(String.init)
        print("InstallTests: ldd \(binary):\n\(ldd.out)")
        #expect(!ldd.out.contains(toolchain), "\(ldd.out)")
        for line in neededLines {
            #expect(!line.lowercased().contains("swift") && !line.contains("Foundation") && !line.contains("dispatch"), "\(line)")
        }
        let linksXlib = neededLines.contains { $0.hasSuffix("libX11.so.6") }
        #expect(linksXlib, "\(neededLines)")
        let runpath = try Packaging.run(["readelf", "-d", binary])
        #expect(!runpath.out.contains("RUNPATH") && !runpath.out.contains("RPATH"), "\(runpath.out)")

        let uninstall = try Packaging.make(["uninstall", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.log)")
    }

    @Test func manPagesRenderAndTheCommandPageAndCompletionsNameEverySubcommand() throws {
        try Packaging.requireBuild()
        let prefix = try Packaging.temporaryDirectory("man")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try Packaging.make(["install", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "\(install.log)")
        let subcommands = try Packaging.subcommands(of: prefix + "/bin/gesture-bridge")
        #expect(subcommands.contains("check-config") && subcommands.contains("replay") && subcommands.contains("list-devices"), "\(subcommands)")

        let environment = ["MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C.UTF-8"]
        let page1 = try Packaging.run(["man", "-l", prefix + "/share/man/man1/gesture-bridge.1"], environment: environment)
        #expect(page1.status == 0 && page1.err.isEmpty, "\(page1.log)")
        for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "--config", "--dry-run", "gesture-bridge.toml(5)", "share/doc/gesture-bridge/shapes.svg"] {
            #expect(page1.out.contains(name), "gesture-bridge(1) lacks \(name)")
        }
        let page1Words = Set(page1.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        for subcommand in subcommands {
            #expect(page1Words.contains(subcommand), "gesture-bridge(1) does not name \(subcommand)")
        }

        let page5 = try Packaging.run(["man", "-l", prefix + "/share/man/man5/gesture-bridge.toml.5"], environment: environment)
        #expect(page5.status == 0 && page5.err.isEmpty, "\(page5.log)")
        // Every key and value the reference's tables start a row with (`slop_px`, `tap`, ...).
        let reference = try Packaging.read(SourceTree.path("docs/config.md"))
        var tableKeys: [String] = []
        for line in reference.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            tableKeys.append(String(cell))
        }
        #expect(tableKeys.count > 30, "\(tableKeys)")
        for key in tableKeys {
            #expect(page5.out.contains(key), "gesture-bridge.toml(5) lacks \(key)")
        }
        for heading in ["WHERE THE CONFIG LIVES", "ACTIONS", "SEE ALSO", "claim_on_second_finger"] {
            #expect(page5.out.contains(heading), "gesture-bridge.toml(5) lacks \(heading)")
        }
        let groff = try Packaging.run(["groff", "-man", "-ww", "-z", prefix + "/share/man/man5/gesture-bridge.toml.5"])
        #expect(groff.status == 0 && groff.err.isEmpty, "\(groff.log)")
        // Found by name once its directory is on MANPATH, as man finds it beside PATH's bin.
        let byName = try Packaging.run(["man", "-w", "gesture-bridge.toml"], environment: ["MANPATH": prefix + "/share/man"])
        #expect(byName.out.trimmingCharacters(in: .whitespacesAndNewlines) == prefix + "/share/man/man5/gesture-bridge.toml.5", "\(byName.log)")

        // bash: the completion function itself, offering every subcommand after the command name.
        let script = """
            source "$1"
            COMP_WORDS=(gesture-bridge ""); COMP_CWORD=1; COMP_LINE="gesture-bridge "; COMP_POINT=${#COMP_LINE}
            _gesture-bridge gesture-bridge "" gesture-bridge
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bash = try Packaging.run(["bash", "--norc", "-c", script, "bash", prefix + "/share/bash-completion/completions/gesture-bridge"])
        #expect(bash.status == 0, "\(bash.log)")
        let offered = Set(bash.out.split(separator: "\n").map(String.init))
        for subcommand in subcommands {
            #expect(offered.contains(subcommand), "bash completion does not offer \(subcommand): \(offered.sorted())")
        }
        #expect(offered.contains("--config"))
        #expect(try !Packaging.read(prefix + "/share/bash-completion/completions/gesture-bridge").hasPrefix("#!"), "a sourced file needs no #! line")
        for file in ["share/zsh/site-functions/_gesture-bridge", "share/fish/vendor_completions.d/gesture-bridge.fish"] {
            let text = try Packaging.read(prefix + "/" + file)
            for subcommand in subcommands {
                #expect(text.contains(subcommand), "\(file) does not name \(subcommand)")
            }
        }
        // zsh and fish parse their files without running them (-n / --no-execute): a syntax
        // error in what argument-parser generates would show here, not in a user's shell.
        let zsh = try Packaging.run(["zsh", "-n", prefix + "/share/zsh/site-functions/_gesture-bridge"])
        #expect(zsh.status == 0 && zsh.err.isEmpty, "\(zsh.log)")
        let fish = try Packaging.run(["fish", "--no-execute", prefix + "/share/fish/vendor_completions.d/gesture-bridge.fish"])
        #expect(fish.status == 0 && fish.err.isEmpty, "\(fish.log)")
        // fish, for real: the completion offers every subcommand after the command name.
        let fishOffered = try Packaging.run([
            "fish", "--no-config", "-c", "source $argv[1]; complete --do-complete 'gesture-bridge '", prefix + "/share/fish/vendor_completions.d/gesture-bridge.fish",
        ])
        let fishWords = Set(fishOffered.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        for subcommand in subcommands {
            #expect(fishWords.contains(subcommand), "fish completion does not offer \(subcommand): \(fishOffered.log)")
        }

        let uninstall = try Packaging.make(["uninstall", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.log)")
    }

    @Test func theUnitAndTheAutostartEntryPassTheirValidatorsAndDoNotBothStart() throws {
        try Packaging.requireBuild()
        let prefix = try Packaging.temporaryDirectory("validate")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try Packaging.make(["install", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "\(install.log)")

        let desktop = prefix + "/etc/xdg/autostart/gesture-bridge.desktop"
        let validate = try Packaging.run(["desktop-file-validate", desktop])
        #expect(validate.status == 0 && validate.out.isEmpty && validate.err.isEmpty, "\(validate.log)")

        // systemd-analyze checks the unit's syntax, that ExecStart is executable and that the
        // man pages of Documentation= are found.
        let runtime = prefix + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verify = try Packaging.run(
            ["systemd-analyze", "--user", "verify", prefix + "/lib/systemd/user/gesture-bridge.service"],
            environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": prefix + "/share/man"])
        #expect(verify.status == 0 && verify.out.isEmpty && verify.err.isEmpty, "\(verify.log)")

        // Under a systemd-managed session (GNOME, Plasma) autostart entries become units through
        // this generator; gesture-bridge's stands aside there, so only gesture-bridge.service runs.
        let generator = "/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator"
        try #require(FileManager.default.isExecutableFile(atPath: generator), "\(generator) missing: install systemd (scripts/setup-debian)")
        let out = prefix + "/generated"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let generated = try Packaging.run(
            [generator, out, out, out],
            environment: ["XDG_CONFIG_DIRS": prefix + "/etc/xdg", "XDG_CONFIG_HOME": prefix + "/none", "SYSTEMD_LOG_LEVEL": "debug"])
        #expect(generated.status == 0, "\(generated.log)")
        #expect(generated.err.contains("gesture-bridge.desktop: not generating unit, marked as skipped"), "\(generated.log)")
        let generatedUnits = Packaging.files(below: out).filter { $0.contains("gesture") }
        #expect(generatedUnits == [])

        let uninstall = try Packaging.make(["uninstall", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.log)")
    }

    @Test func theDefaultPrefixIsTheUsersAndPutsTheUnitAndAutostartEntryWhereTheyAreRead() throws {
        try Packaging.requireBuild()
        let home = try Packaging.temporaryDirectory("home")
        defer { try? FileManager.default.removeItem(atPath: home) }

        let install = try Packaging.make(["install"], environment: ["HOME": home])
        try #require(install.status == 0, "\(install.log)")
        let expected = [
            ".config/autostart/gesture-bridge.desktop",
            ".local/bin/gesture-bridge",
            ".local/share/bash-completion/completions/gesture-bridge",
            ".local/share/doc/gesture-bridge/LICENSE",
            ".local/share/doc/gesture-bridge/README.md",
            ".local/share/doc/gesture-bridge/config.example.toml",
            ".local/share/doc/gesture-bridge/shapes.svg",
            ".local/share/fish/vendor_completions.d/gesture-bridge.fish",
            ".local/share/gesture-bridge/install-manifest",
            ".local/share/man/man1/gesture-bridge.1",
            ".local/share/man/man5/gesture-bridge.toml.5",
            ".local/share/systemd/user/gesture-bridge.service",
            ".local/share/zsh/site-functions/_gesture-bridge",
        ]
        #expect(Packaging.files(below: home) == expected)
        let unit = try Packaging.read(home + "/.local/share/systemd/user/gesture-bridge.service")
        #expect(unit.contains("\nExecStart=\(home)/.local/bin/gesture-bridge\n"), "\(unit)")

        // systemd's own search path for this user holds the unit's directory.
        let runtime = home + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let paths = try Packaging.run(["systemd-analyze", "--user", "unit-paths"], environment: ["HOME": home, "XDG_RUNTIME_DIR": runtime])
        #expect(paths.status == 0, "\(paths.log)")
        #expect(paths.out.split(separator: "\n").contains(Substring(home + "/.local/share/systemd/user")), "\(paths.out)")
        try FileManager.default.removeItem(atPath: runtime)

        let uninstall = try Packaging.make(["uninstall"], environment: ["HOME": home])
        try #require(uninstall.status == 0, "\(uninstall.log)")
        #expect(Packaging.entries(below: home) == [])
    }

    @Test func aStagedInstallKeepsTheTargetSystemsPaths() throws {
        try Packaging.requireBuild()
        let stage = try Packaging.temporaryDirectory("destdir")
        defer { try? FileManager.default.removeItem(atPath: stage) }

        let install = try Packaging.make(["install", "DESTDIR=\(stage)", "PREFIX=/usr"])
        try #require(install.status == 0, "\(install.log)")
        let expected = [
            "etc/xdg/autostart/gesture-bridge.desktop",
            "usr/bin/gesture-bridge",
            "usr/lib/systemd/user/gesture-bridge.service",
            "usr/share/bash-completion/completions/gesture-bridge",
            "usr/share/doc/gesture-bridge/LICENSE",
            "usr/share/doc/gesture-bridge/README.md",
            "usr/share/doc/gesture-bridge/config.example.toml",
            "usr/share/doc/gesture-bridge/shapes.svg",
            "usr/share/fish/vendor_completions.d/gesture-bridge.fish",
            "usr/share/gesture-bridge/install-manifest",
            "usr/share/man/man1/gesture-bridge.1",
            "usr/share/man/man5/gesture-bridge.toml.5",
            "usr/share/zsh/site-functions/_gesture-bridge",
        ]
        #expect(Packaging.files(below: stage) == expected)
        let unit = try Packaging.read(stage + "/usr/lib/systemd/user/gesture-bridge.service")
        #expect(unit.contains("\nExecStart=/usr/bin/gesture-bridge\n"), "\(unit)")
        let manifest = try Packaging.read(stage + "/usr/share/gesture-bridge/install-manifest")
        #expect(manifest.contains("f /usr/bin/gesture-bridge\n") && !manifest.contains(stage), "\(manifest)")

        let uninstall = try Packaging.make(["uninstall", "DESTDIR=\(stage)", "PREFIX=/usr"])
        try #require(uninstall.status == 0, "\(uninstall.log)")
        #expect(Packaging.entries(below: stage) == [])
    }

    @Test func makeDebBuildsAPackageThatDpkgInstallsAndRemoves() throws {
        try Packaging.requireBuild()
        let deb = try Packaging.make(["deb"])
        try #require(deb.status == 0, "\(deb.log)")

        let version = try CLI.run(["--version"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try Packaging.run(["dpkg", "--print-architecture"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let file = "\(Packaging.root)/dist/gesture-bridge_\(version)_\(arch).deb"
        try #require(FileManager.default.fileExists(atPath: file), "\(deb.log)")
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        print("InstallTests: \(file): \(size) bytes")

        func field(_ name: String) throws -> String {
            try Packaging.run(["dpkg-deb", "--field", file, name]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try field("Package") == "gesture-bridge")
        #expect(try field("Version") == version)
        #expect(try field("Architecture") == arch)
        #expect(try !field("Maintainer").isEmpty)
        #expect(try !field("Description").isEmpty)
        let depends = try field("Depends")
        let dependedOn = depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }.map(String.init)
        // The last four draw the on-screen feedback: SHAPE, RENDER, XFIXES and Xft (which brings fontconfig).
        for package in ["libc6", "libstdc++6", "libx11-6", "libxi6", "libxtst6", "libxss1", "libxrandr2",
                        "libxext6", "libxrender1", "libxfixes3", "libxft2"] {
            #expect(dependedOn.contains(package), "Depends: \(depends)")
        }
        #expect(!depends.lowercased().contains("swift"), "Depends: \(depends)")

        let contents = try Packaging.run(["dpkg-deb", "--contents", file])
        try #require(contents.status == 0, "\(contents.log)")
        var packaged: [String] = []
        for line in contents.out.split(separator: "\n") where line.hasPrefix("-") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns[1] == "root/root", "\(line)")
            let path = String(columns[columns.count - 1])
            let expectedMode = path == "./usr/bin/gesture-bridge" ? "-rwxr-xr-x" : "-rw-r--r--"
            #expect(columns[0] == Substring(expectedMode), "\(line)")
            packaged.append(path)
        }
        #expect(packaged.sorted() == [
            "./etc/xdg/autostart/gesture-bridge.desktop",
            "./usr/bin/gesture-bridge",
            "./usr/lib/systemd/user/gesture-bridge.service",
            "./usr/share/bash-completion/completions/gesture-bridge",
            "./usr/share/doc/gesture-bridge/README.md",
            "./usr/share/doc/gesture-bridge/changelog.gz",
            "./usr/share/doc/gesture-bridge/config.example.toml",
            "./usr/share/doc/gesture-bridge/copyright",
            "./usr/share/doc/gesture-bridge/shapes.svg",
            "./usr/share/fish/vendor_completions.d/gesture-bridge.fish",
            "./usr/share/man/man1/gesture-bridge.1.gz",
            "./usr/share/man/man5/gesture-bridge.toml.5.gz",
            "./usr/share/zsh/site-functions/_gesture-bridge",
        ])
        // Debian's policy checker: no error and no warning.
        let lintian = try Packaging.run(["lintian", "--fail-on", "error,warning", file])
        #expect(lintian.status == 0, "\(lintian.log)")
        let conffiles = try Packaging.run(["dpkg-deb", "--info", file, "conffiles"])
        #expect(conffiles.out == "/etc/xdg/autostart/gesture-bridge.desktop\n", "\(conffiles.log)")

        // dpkg installs it into a throwaway root whose package database is this machine's, so the
        // Depends are checked against what is really installed here (no --force-depends).
        let root = try Packaging.temporaryDirectory("dpkgroot")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let admin = root + "/var/lib/dpkg"
        for directory in ["info", "updates", "triggers"] {
            try FileManager.default.createDirectory(atPath: admin + "/" + directory, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: "/var/lib/dpkg/status", toPath: admin + "/status")
        _ = FileManager.default.createFile(atPath: admin + "/available", contents: nil)
        let dpkg = ["dpkg", "--root=\(root)", "--force-not-root"]

        let installed = try Packaging.run(dpkg + ["--install", file])
        try #require(installed.status == 0, "\(installed.log)")
        let status = try Packaging.run(dpkg + ["--status", "gesture-bridge"])
        #expect(status.out.contains("Status: install ok installed"), "\(status.log)")
        let onDisk = Packaging.files(below: root).filter { !$0.hasPrefix("var/") }
        let packagedPaths = packaged.map { String($0.dropFirst(2)) }.sorted()
        #expect(onDisk == packagedPaths)
        let run = try Packaging.run([root + "/usr/bin/gesture-bridge", "--version"], clean: true)
        #expect(run.out == version + "\n", "\(run.log)")

        let removed = try Packaging.run(dpkg + ["--remove", "gesture-bridge"])
        try #require(removed.status == 0, "\(removed.log)")
        // Removed, the conffile stays (Debian's rule for files in /etc) until the package is purged.
        let afterRemove = Packaging.files(below: root).filter { !$0.hasPrefix("var/") }
        #expect(afterRemove == ["etc/xdg/autostart/gesture-bridge.desktop"])
        let purged = try Packaging.run(dpkg + ["--purge", "gesture-bridge"])
        try #require(purged.status == 0, "\(purged.log)")
        let afterPurge = Packaging.files(below: root).filter { !$0.hasPrefix("var/") }
        #expect(afterPurge == [])
        let gone = try Packaging.run(dpkg + ["--status", "gesture-bridge"])
        #expect(gone.status != 0 || !gone.out.contains("installed"), "\(gone.log)")
    }

    /// The toolchain's root (/opt/swift/usr), from the `swift` on PATH.
    static func toolchainDirectory() throws -> String {
        let which = try Packaging.run(["sh", "-c", "dirname \"$(dirname \"$(readlink -f \"$(command -v swift)\")\")\""])
        let toolchain = which.out.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(which.status == 0 && toolchain.hasPrefix("/") && toolchain.count > 1, "no swift on PATH: \(which.log)")
        return toolchain
    }
}
