import Foundation
import GestureTestKit
import Testing

/// The path of someone new, README in hand: the set-up commands the README gives are the ones
/// CI runs, `make install` says when its program is not on `PATH`, the licence goes wherever the
/// program goes, what the docs say is installed is, and the shells complete files where a
/// command takes a file.
@Suite("a newcomer's path: set-up, install, licence, docs, completions", .serialized)
struct NewcomerTests {
    /// The commands of the README's `sh` blocks, one per line.
    static func readmeCommands() throws -> [String] {
        let readme = try Packaging.read(SourceTree.path("README.md"))
        var commands: [String] = [], inBlock = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```sh" { inBlock = true } else if line.hasPrefix("```") { inBlock = false } else if inBlock { commands.append(String(line)) }
        }
        return commands
    }

    @Test("the README gives one set-up command to run the bridge and one to run the tests, and CI runs the second")
    func readmeSetUpCommandsAreWhatCIRuns() throws {
        let setUps = try Self.readmeCommands().filter { $0.hasPrefix("./scripts/setup-debian") }
        #expect(setUps.contains("./scripts/setup-debian && swift build -c release && .build/release/gesture-bridge"), "\(setUps)")
        let test = "./scripts/setup-debian --test && ./scripts/test"
        #expect(setUps.contains(test), "\(setUps)")
        let ci = try Packaging.read(SourceTree.path(".ci/run")).split(separator: "\n").map(String.init)
        #expect(ci.contains(test), "\(ci)")
    }

    @Test("setup-debian: the run set has no test-only package, the test set has them all, and a wrong option is a usage error")
    func setupSetsAreSplit() throws {
        let script = try Packaging.read(SourceTree.path("scripts/setup-debian"))
        /// The packages of `name=(…)`: the lines up to the one that is `)`, comments left out.
        func list(_ name: String) -> [String] {
            let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
            guard let start = lines.firstIndex(of: Substring("\(name)=(")) else { return [] }
            return lines[(start + 1)...].prefix { $0 != ")" }.flatMap { line in
                line.trimmingCharacters(in: .whitespaces).hasPrefix("#") ? [] : line.split(separator: " ").map(String.init)
            }
        }
        let run = list("run_packages"), tests = list("test_packages")
        #expect(run.contains("libxi-dev") && run.contains("pkg-config"), "\(run)")
        for testOnly in ["xserver-xorg-video-dummy", "lintian", "zsh", "fish", "faketime", "systemd", "xvfb"] {
            #expect(!run.contains(testOnly), "the run set installs \(testOnly)")
            #expect(tests.contains(testOnly), "the test set lacks \(testOnly)")
        }
        let wrong = try Packaging.run(["bash", SourceTree.path("scripts/setup-debian"), "--everything"])
        #expect(wrong.status == 64, "\(wrong.log)")
    }

    @Test("make install says when its bin directory is not on PATH, and not when it is or when staging")
    func installSaysWhenNotOnPath() throws {
        try Packaging.requireBuild()
        let prefix = try Packaging.temporaryDirectory("pathnotice")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let path = "/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")

        let away = try Packaging.make(["install", "PREFIX=\(prefix)"], environment: ["PATH": path])
        try #require(away.status == 0, "\(away.log)")
        #expect(away.out.contains("make install: \(prefix)/bin is not on your PATH"), "\(away.log)")
        #expect(away.out.contains("export PATH=\"\(prefix)/bin:$PATH\""), "\(away.log)")

        let onPath = try Packaging.make(["install", "PREFIX=\(prefix)"], environment: ["PATH": "\(prefix)/bin:" + path])
        #expect(onPath.status == 0 && !onPath.out.contains("not on your PATH"), "\(onPath.log)")
        #expect(try Packaging.make(["uninstall", "PREFIX=\(prefix)"]).status == 0)

        let stage = try Packaging.temporaryDirectory("pathstage")
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let staged = try Packaging.make(["install", "DESTDIR=\(stage)", "PREFIX=/usr"], environment: ["PATH": path])
        #expect(staged.status == 0 && !staged.out.contains("not on your PATH"), "\(staged.log)")
    }

    @Test("the licence is MIT, the gesture-bridge developers', and goes with the program and the package")
    func licence() throws {
        let license = try Packaging.read(SourceTree.path("LICENSE"))
        #expect(license.hasPrefix("MIT License\n\nCopyright (c) 2026 the gesture-bridge developers\n"), "\(license)")
        #expect(license.contains("Permission is hereby granted, free of charge"))
        // packaging/copyright carries the same text (its own line breaks and indentation).
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let copyright = try Packaging.read(SourceTree.path("packaging/copyright"))
        let grant = license[license.range(of: "Permission is hereby granted")!.lowerBound...]
        #expect(words(copyright).contains(words(String(grant))), "packaging/copyright lacks the licence's text")
        #expect(copyright.contains("Copyright (c) 2026 the gesture-bridge developers"))

        try Packaging.withInstall("licence") { prefix in
            let installed = try Packaging.read(prefix + "/share/doc/gesture-bridge/LICENSE")
            #expect(installed == license)
        }
    }

    @Test("what the docs say is installed is installed, and the default config's size is what they say")
    func docsSayWhatIsInstalled() throws {
        try Packaging.withInstall("docs") { prefix in
            var named: Set<String> = []
            for doc in ["README.md", "docs/config.md", "config/default.toml"] {
                let text = try Packaging.read(SourceTree.path(doc))
                let parts = text.components(separatedBy: "share/doc/gesture-bridge/")
                for (before, part) in zip(parts, parts.dropFirst()) {
                    // /usr/share/doc/…: the Debian package's, which makeDebBuildsAPackage… checks.
                    if before.hasSuffix("/usr/") { continue }
                    let name = part.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
                    if name.count > 1 { named.insert(String(name.hasSuffix(".") ? name.dropLast() : name)) }
                }
            }
            #expect(named.isSuperset(of: ["README.md", "shapes.svg", "config.example.toml"]), "\(named)")
            for name in named {
                #expect(FileManager.default.fileExists(atPath: prefix + "/share/doc/gesture-bridge/" + name), "the docs name share/doc/gesture-bridge/\(name), which is not installed")
            }
            // Neither the reference nor its man page sends anyone to a file of the sources.
            let page5 = try Packaging.read(prefix + "/share/man/man5/gesture-bridge.toml.5")
            for text in [try Packaging.read(SourceTree.path("docs/config.md")), page5] {
                #expect(!text.contains("cp config/default.toml"))
            }

            let size = try Packaging.read(SourceTree.path("config/default.toml")).utf8.count
            let reference = try Packaging.read(SourceTree.path("docs/config.md"))
            let said = reference.components(separatedBy: "The default config is about ").dropFirst().first?.prefix { $0.isNumber }
            let kilobytes = try #require(said.flatMap { Int($0) }, "docs/config.md no longer says the default config's size")
            #expect(abs(Double(size) / 1024 - Double(kilobytes)) < 1, "the default config is \(size) bytes; docs/config.md says about \(kilobytes) KB")
        }
    }

    @Test("gesture-bridge(1) has real exit codes and examples")
    func commandPageHasExitCodesAndExamples() throws {
        try Packaging.withInstall("page1") { prefix in
            let environment = ["MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C.UTF-8"]
            let page = try Packaging.run(["man", "-l", prefix + "/share/man/man1/gesture-bridge.1"], environment: environment)
            #expect(page.status == 0 && page.err.isEmpty, "\(page.log)")
            // The section up to EXAMPLES, one code at the start of each of its items.
            let exitStatus = (page.out.components(separatedBy: "EXIT STATUS").dropFirst().first ?? "").components(separatedBy: "EXAMPLES")[0]
            let codes = exitStatus.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.filter { Int($0) != nil }
            #expect(codes == ["0", "1", "2", "64"], "\(exitStatus)")
            #expect(!exitStatus.contains(">0 if an error occurs"), "\(exitStatus.prefix(400))")
            let examples = page.out.components(separatedBy: "EXAMPLES").dropFirst().first ?? ""
            for example in ["gesture-bridge --dry-run", "gesture-bridge check-config", "gesture-bridge print-config >", "systemctl --user enable --now gesture-bridge"] {
                #expect(examples.contains(example), "EXAMPLES lacks \(example)")
            }
            let groff = try Packaging.run(["groff", "-mandoc", "-ww", "-z", prefix + "/share/man/man1/gesture-bridge.1"])
            #expect(groff.status == 0 && groff.err.isEmpty, "\(groff.log)")
        }
    }

    /// Runs bash's completion for `line` in `directory`, as the shell does after a Tab.
    static func bashCompletes(_ line: String, script: String, in directory: String) throws -> [String] {
        let program = """
            source "$1"; read -ra words <<< "$2"; words+=("")
            COMP_WORDS=("${words[@]}"); COMP_CWORD=$(( ${#words[@]} - 1 )); COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            _gesture-bridge gesture-bridge "" "${words[-2]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try Packaging.run(["bash", "--norc", "-c", program, "bash", script, line], directory: directory)
        try #require(run.status == 0, "\(run.log)")
        return run.out.split(separator: "\n").map(String.init).sorted()
    }

    @Test("bash, zsh and fish complete files where a file is expected: a config (.toml, and directories), a trace (any file)")
    func completionsCompleteFiles() throws {
        try Packaging.withInstall("completion") { prefix in
            let files = prefix + "/files"
            try FileManager.default.createDirectory(atPath: files + "/sub", withIntermediateDirectories: true)
            for name in ["a.toml", "notes.txt", "walk.jsonl"] { _ = FileManager.default.createFile(atPath: files + "/" + name, contents: nil) }

            let configs = ["a.toml", "sub"], anyFile = ["a.toml", "notes.txt", "sub", "walk.jsonl"]
            let bash = prefix + "/share/bash-completion/completions/gesture-bridge"
            for (line, expected) in [
                ("gesture-bridge check-config", configs), ("gesture-bridge --config", configs), ("gesture-bridge doctor --config", configs),
                ("gesture-bridge replay", anyFile), ("gesture-bridge record", anyFile),
            ] {
                #expect(try Self.bashCompletes(line + " ", script: bash, in: files) == expected, "bash: \(line)")
            }

            let fish = prefix + "/share/fish/vendor_completions.d/gesture-bridge.fish"
            for (line, expected) in [
                ("gesture-bridge check-config ", ["a.toml", "sub/"]), ("gesture-bridge --config ", ["a.toml", "sub/"]),
                ("gesture-bridge replay ", ["a.toml", "notes.txt", "sub/", "walk.jsonl"]),
            ] {
                let run = try Packaging.run(["fish", "--no-config", "-c", "source $argv[1]; complete --do-complete $argv[2]", fish, line], directory: files)
                let offered = run.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
                #expect(offered == expected, "fish: \(line): \(run.log)")
            }

            // zsh completes through the specs the script gives its arguments: _files, filtered to
            // *.toml for a config.
            let zsh = try Packaging.read(prefix + "/share/zsh/site-functions/_gesture-bridge")
            #expect(zsh.contains("'--config[Use FILE instead of the config search path.]:FILE:_files -g '\\''*.toml'\\'''"), "\(zsh)")
            #expect(zsh.contains("':FILE:_files -g '\\''*.toml'\\'''"), "check-config FILE")
            #expect(zsh.contains("':TRACE:_files'"), "replay TRACE")
        }
    }
}
