public import Foundation

/// A program run to completion by a test: its exit status and everything it printed.
///
/// The one runner for tests that start a binary and wait for it (the CLI tests, `doctor` end to
/// end). Daemons that keep running use `DaemonProcess` instead.
///
/// ```swift
/// let r = try ProgramRun(executable: "/usr/bin/true", arguments: [])
/// #expect(r.status == 0)
/// ```
public struct ProgramRun: Sendable {
    /// The exit status (or the signal number, for a program killed by one).
    public var status: Int32
    /// Standard output, decoded as UTF-8 (invalid bytes replaced).
    public var out: String
    /// Standard error, decoded the same way.
    public var err: String

    /// All of it, for a failing expectation's message.
    public var log: String { "exit \(status)\n--- stdout\n\(out)\n--- stderr\n\(err)" }

    /// Runs `executable` with `arguments` and exactly `environment`, standard input from
    /// `/dev/null`, in `directory` when given; waits for it to end.
    public init(executable: String, arguments: [String], environment: [String: String], directory: URL? = nil) throws {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error is read on its own thread: a program that fills one pipe while the
        // test waits on the other would otherwise never end.
        let errorText = ErrorText()
        let reader = Thread { errorText.data = err.fileHandleForReading.readDataToEndOfFile(); errorText.done.signal() }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        errorText.done.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        self.out = String(decoding: o, as: UTF8.self)
        self.err = String(decoding: errorText.data, as: UTF8.self)
    }

    private final class ErrorText: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
