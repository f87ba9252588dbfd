import BridgeCore
import CLinux
import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// One run of the OSD's glyph renderer (``OSDGlyphs``): the process started with a request
/// (pixel sizes, characters), its output read from a pipe when the daemon needs it.
///
/// Starting never waits. The canvas waits a little for the renderer at start-up (it is usually
/// done within tens of milliseconds: then nothing of it is left to do, no process to reap);
/// else it is collected at the first OSD that needs what it renders — each OSD waits for it a
/// moment at most — or given up ``timeout`` after it started. Only this child is reaped here (`waitpid` on its pid): the
/// daemon's other children are others' to reap.
///
/// ```swift
/// let job = try OSDGlyphJob(command: renderer, display: ":0", pixelSizes: [17], characters: [0x41])
/// let faces = try job.collect(within: .milliseconds(100))   // nil while it still renders
/// ```
final class OSDGlyphJob {
    let pixelSizes: [Int]
    let characters: [UInt32]
    /// When it was started.
    let started = ContinuousClock.now
    private var pid: Int32 = -1
    private var readEnd: Int32 = -1
    /// What the renderer wrote so far.
    private var output: [UInt8] = []
    /// How long the renderer may take, from the moment it is waited for: fontconfig reads its
    /// caches (a first run without them scans the fonts: seconds on a slow disk).
    static let timeout = Duration.seconds(10)
    /// The most it may write: a glyph at the largest OSD size is a few kB.
    static let maximumOutput = 16 << 20

    /// The renderer's command line: `prefix` (the binary and its flag), the display, the sizes
    /// (`17,25`) and the characters (hexadecimal code points, `41,20ac`).
    static func command(_ prefix: [String], display: String?, pixelSizes: [Int], characters: [UInt32]) -> [String] {
        prefix + [display ?? "", pixelSizes.map(String.init).joined(separator: ","),
                  characters.map { String($0, radix: 16) }.joined(separator: ",")]
    }

    /// Starts the renderer.
    ///
    /// - Throws: ``SystemError`` when the pipe or the process cannot be made.
    init(command prefix: [String], display: String?, pixelSizes: [Int], characters: [UInt32]) throws(SystemError) {
        self.pixelSizes = pixelSizes
        self.characters = characters
        var ends: [Int32] = [-1, -1]
        try SystemCall.once("pipe") { pipe(&ends) }
        // Neither end reaches an `exec` child; the renderer gets the write end as its stdout.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { SystemCall.close(ends[1]) }
        do throws(SystemError) {
            pid = try ProcessSpawner.spawn(Self.command(prefix, display: display, pixelSizes: pixelSizes, characters: characters),
                                           searchingPath: false, output: ends[1])
        } catch {
            SystemCall.close(ends[0])
            throw error
        }
        readEnd = ends[0]
    }

    deinit { abandon() }

    /// The faces, when the renderer is done within `limit`; nil while it still runs (what it
    /// wrote so far is kept for the next call).
    ///
    /// - Throws: ``OSDGlyphJob/Failure`` when it failed or wrote garbage.
    func collect(within limit: Duration) throws(Failure) -> [OSDGlyphs.Face]? {
        do throws(Failure) {
            guard try readOutput(for: limit) else { return nil }
            let faces = try finish()
            abandon()
            return faces
        } catch {
            abandon()
            throw error
        }
    }

    /// Reads what the renderer writes until its output ends (true) or `limit` passes (false).
    private func readOutput(for limit: Duration) throws(Failure) -> Bool {
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let left = deadline - .now
            var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
            let milliseconds = max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = (try? SystemCall.poll(&fds, timeout: Int32(clamping: milliseconds))) ?? -1
            if ready < 0 { throw .unreadable }
            if ready == 0 {
                if ContinuousClock.now >= deadline { return false }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { b in
                (try? SystemCall.retryingInterrupts("read") { read(readEnd, b.baseAddress, b.count) }) ?? -1
            }
            if count < 0 { throw .unreadable }
            if count == 0 { return true }
            output.append(contentsOf: buffer[..<count])
            if output.count > Self.maximumOutput { throw .garbled }
        }
    }

    /// Once the output ended: the renderer's exit (it is exiting), and the faces it wrote.
    private func finish() throws(Failure) -> [OSDGlyphs.Face] {
        let deadline = ContinuousClock.now + Self.timeout
        var status: Int32 = 0
        while true {
            let result = (try? SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, WNOHANG) }) ?? -1
            if result == pid { break }
            if result < 0 || deadline <= .now { throw .timedOut }
            usleep(1000)
        }
        pid = -1
        guard CLinux_WIFEXITED(status) else { throw .ended(signal: CLinux_WTERMSIG(status)) }
        let code = CLinux_WEXITSTATUS(status)
        guard code == 0 else { throw OSDGlyphs.Failure(rawValue: code).map(Failure.renderer) ?? .exited(code) }
        guard let faces = OSDGlyphs.decode(output) else { throw .garbled }
        return faces
    }

    /// Ends the renderer if it still runs, and reaps it.
    func abandon() {
        if readEnd >= 0 {
            SystemCall.close(readEnd)
            readEnd = -1
        }
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = try? SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
        pid = -1
    }

    /// Why no glyphs came.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case renderer(OSDGlyphs.Failure)
        case exited(Int32)
        case ended(signal: Int32)
        case timedOut
        case unreadable
        case garbled

        var description: String {
            switch self {
            case .renderer(let failure): "\(failure)"
            case .exited(let code): "the renderer exited with status \(code)"
            case .ended(let signal): "the renderer was ended by signal \(signal)"
            case .timedOut: "the renderer took longer than \(OSDGlyphJob.timeout)"
            case .unreadable: "its output could not be read"
            case .garbled: "its output was not glyphs"
            }
        }
    }
}
