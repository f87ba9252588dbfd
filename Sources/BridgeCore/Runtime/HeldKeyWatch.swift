import CLinux
import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Keycodes and buttons held down through XTest, as the daemon tells its watcher of them.
///
/// On the wire it is one line of text, `keys 37 50 133 buttons 3` (a list may be empty:
/// `keys buttons`). A line is at most a few hundred bytes (248 keycodes, 255 buttons, three
/// characters each and a space), well below `PIPE_BUF`: a write of it to a pipe is whole or not
/// at all.
///
/// ```swift
/// let held = HeldCodes(keys: [37, 50], buttons: [])
/// held.line                              // "keys 37 50 buttons"
/// HeldCodes(line: "keys 37 50 buttons")  // the same
/// ```
public struct HeldCodes: Hashable, Sendable, CustomStringConvertible {
    /// Keycodes down, in press order.
    public var keys: [UInt8]
    /// Buttons down, in press order.
    public var buttons: [Int]

    public init(keys: [UInt8] = [], buttons: [Int] = []) {
        self.keys = keys
        self.buttons = buttons
    }

    /// Nothing held.
    public var isEmpty: Bool { keys.isEmpty && buttons.isEmpty }

    /// The line for the watcher, without its newline.
    public var line: String {
        (["keys"] + keys.map { String($0) } + ["buttons"] + buttons.map { String($0) }).joined(separator: " ")
    }

    /// Reads a ``line``; nil for anything else (a cut-off or foreign line).
    public init?(line: some StringProtocol) {
        let words = line.split(separator: " ")
        guard words.first == "keys", let split = words.firstIndex(of: "buttons") else { return nil }
        var keys: [UInt8] = []
        for word in words[1..<split] {
            guard let key = UInt8(word), key >= 8 else { return nil }
            keys.append(key)
        }
        var buttons: [Int] = []
        for word in words[(split + 1)...] {
            guard let button = Int(word), (1...255).contains(button) else { return nil }
            buttons.append(button)
        }
        self.init(keys: keys, buttons: buttons)
    }

    /// Every key and button of `other` is here too.
    public func covers(_ other: HeldCodes) -> Bool {
        other.keys.allSatisfy(keys.contains) && other.buttons.allSatisfy(buttons.contains)
    }

    /// These, and those of `other` not here yet (after them, in their order).
    public func union(_ other: HeldCodes) -> HeldCodes {
        HeldCodes(keys: keys + other.keys.filter { !keys.contains($0) }, buttons: buttons + other.buttons.filter { !buttons.contains($0) })
    }

    /// `keys 37 50 and button 3`, for log lines.
    public var description: String {
        var parts: [String] = []
        if !keys.isEmpty { parts.append("keys " + keys.map { String($0) }.joined(separator: " ")) }
        if !buttons.isEmpty { parts.append((buttons.count == 1 ? "button " : "buttons ") + buttons.map { String($0) }.joined(separator: " ")) }
        return parts.isEmpty ? "nothing" : parts.joined(separator: " and ")
    }
}

/// The daemon's side of its watcher: a process of its own that outlives the daemon and lets go of
/// the keys and buttons the daemon held through XTest when the daemon ends without letting go of
/// them.
///
/// The X server keeps a key pressed through XTest down after the client that pressed it is gone
/// — closed, killed or crashed (measured on Xvfb and Xorg 21.1: down 20 s later and after a
/// restart; docs/reliability.md). No code of a daemon that gets `SIGKILL` or crashes runs, so the
/// release has to come from another process. The watcher is started with a pipe as its standard
/// input (``ProcessSpawner``: a session of its own, so a terminal's Ctrl+C does not reach it, and
/// no other descriptor); the daemon writes to it what it holds (``HeldCodes``), and when the
/// daemon ends, however it ends, the kernel closes the pipe: the watcher reads its end and
/// releases, with XTest on a connection of its own, what the last line said is held. After a
/// clean shutdown that is nothing.
///
/// What the watcher was told is always at least what may be down on the server: a key is told
/// before its press is sent (``willHold(_:)``), and a release only once it was sent
/// (``confirm(_:)``, after a flush). Releasing a key that is already up changes nothing.
///
/// The write end never blocks the daemon (a stopped watcher fills the pipe: the line is written
/// again at the next change). A watcher that ended is started again on `SIGCHLD` (``reap()``).
///
/// ```swift
/// let watch = try HeldKeyWatch(command: ["/proc/self/exe", "held-input-watch", ":0", "\(getpid())"])
/// watch.willHold(HeldCodes(keys: [64]))   // before XTestFakeKeyEvent(64, press)
/// display.flush()
/// watch.confirm(HeldCodes(keys: [64]))
/// ```
public final class HeldKeyWatch {
    /// The watcher's command line (`argv[0]` a path).
    private let command: [String]
    /// The watcher's pid.
    public private(set) var pid: Int32 = -1
    /// The pipe's write end; -1 once closed.
    private var writeEnd: Int32 = -1
    /// What the watcher was told, or is to be told: a superset of what is down on the server.
    public private(set) var announced = HeldCodes()
    /// ``announced`` is not written yet (the pipe was full, or the watcher is being replaced).
    private var unsent = false

    /// Starts the watcher.
    ///
    /// - Throws: ``SystemError`` when the pipe or the process cannot be made.
    public init(command: [String]) throws(SystemError) {
        self.command = command
        try start()
    }

    private func start() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        try SystemCall.once("pipe") { pipe(&ends) }
        // Neither end reaches an `exec` child; the watcher gets its end as standard input.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { SystemCall.close(ends[0]) }
        do throws(SystemError) {
            pid = try ProcessSpawner.spawn(command, searchingPath: false, input: ends[0])
        } catch {
            SystemCall.close(ends[1])
            throw error
        }
        // A watcher that stops reading (stopped, stuck) must never stop the daemon.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        writeEnd = ends[1]
        unsent = !announced.isEmpty
        send()
    }

    /// Before a press is sent: the watcher learns of the keys and buttons of `holding` it does not
    /// know of yet. Releases are not told here (the release may not have left yet): see
    /// ``confirm(_:)``.
    public func willHold(_ holding: HeldCodes) {
        guard !announced.covers(holding) else { return }
        announced = announced.union(holding)
        unsent = true
        send()
    }

    /// Once every request so far has been sent to the server (after a flush): `holding` is what
    /// is down now, releases included.
    public func confirm(_ holding: HeldCodes) {
        guard holding != announced || unsent else { return }
        announced = holding
        unsent = true
        send()
    }

    private func send() {
        guard unsent, writeEnd >= 0 else { return }
        let bytes = Array((announced.line + "\n").utf8)
        // Whole or nothing (below PIPE_BUF); EAGAIN (a full pipe) or EPIPE (the watcher is gone,
        // SIGCHLD restarts it) leave it unsent, for the next change or the new watcher.
        let written = bytes.withUnsafeBytes { buffer in
            (try? SystemCall.retryingInterrupts("write") { write(writeEnd, buffer.baseAddress, buffer.count) }) ?? -1
        }
        if written == bytes.count { unsent = false }
    }

    /// On `SIGCHLD`: when the watcher has ended, starts a new one and tells it what is held.
    ///
    /// - Returns: what happened, for a log line; nil while the watcher runs.
    public func reap() -> String? {
        guard pid > 0 else { return nil }
        var status: Int32 = 0
        let result = (try? SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, WNOHANG) }) ?? -1
        guard result == pid else { return nil }
        let ended = CLinux_WIFEXITED(status) ? "exited with status \(CLinux_WEXITSTATUS(status))" : "was ended by signal \(CLinux_WTERMSIG(status))"
        let old = pid
        SystemCall.close(writeEnd)
        writeEnd = -1
        pid = -1
        do throws(SystemError) {
            try start()
        } catch {
            return "the held-input watcher (pid \(old)) \(ended) and cannot be started again (\(error)): keys held when gesture-bridge is killed stay down"
        }
        return "the held-input watcher (pid \(old)) \(ended); started again (pid \(pid))"
    }

    /// Closes the pipe: the watcher releases what it was last told is held, and ends.
    public func close() {
        guard writeEnd >= 0 else { return }
        SystemCall.close(writeEnd)
        writeEnd = -1
    }

    deinit { close() }
}
