import CLinux
import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Keycodes and buttons held down through XTest, as the daemon keeps them for its watcher.
///
/// They live in a page the daemon and the watcher share (``HeldCodesPage``), as a record of
/// 516 bytes: the count of keys and of buttons (16 bits each, little-endian), then 256 bytes of
/// keycodes and 256 of buttons, each in press order.
///
/// ```swift
/// let held = HeldCodes(keys: [37, 50], buttons: [3])
/// held.description                  // "keys 37 50 and button 3"
/// held.union(HeldCodes(keys: [64]))  // keys 37 50 64, button 3
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

    /// The record's size in bytes: two counts, then room for every keycode and every button.
    public static let recordSize = 4 + 256 + 256
    private static let keysOffset = 4
    private static let buttonsOffset = 4 + 256

    /// Reads a record (``store(into:)``). Counts past the room and codes no key or button can
    /// have (a keycode below 8, button 0) are left out: what is read is always a valid release.
    public init(record: UnsafeRawBufferPointer) {
        precondition(record.count >= Self.recordSize)
        let keyCount = min(Int(record[0]) | Int(record[1]) << 8, 256)
        let buttonCount = min(Int(record[2]) | Int(record[3]) << 8, 256)
        keys = (0..<keyCount).map { record[Self.keysOffset + $0] }.filter { $0 >= 8 }
        buttons = (0..<buttonCount).map { Int(record[Self.buttonsOffset + $0]) }.filter { $0 > 0 }
    }

    /// Writes the record: the codes first, the counts last. The daemon can be killed between any
    /// two stores; the watcher then reads a mix of the record before and after, which is still
    /// at least what is down on the server, because a record only ever grows by codes appended
    /// before their press is sent (``HeldKeyWatch/willHold(_:)``) and shrinks only once the
    /// releases were sent (``HeldKeyWatch/confirm(_:)``).
    public func store(into record: UnsafeMutableRawBufferPointer) {
        store(into: record, keysFrom: 0, buttonsFrom: 0)
    }

    /// ``store(into:)`` of a record that holds the first `keysFrom` keys and `buttonsFrom`
    /// buttons already.
    func store(into record: UnsafeMutableRawBufferPointer, keysFrom: Int, buttonsFrom: Int) {
        precondition(record.count >= Self.recordSize && keys.count <= 256 && buttons.count <= 256)
        for index in keysFrom..<max(keysFrom, keys.count) { record[Self.keysOffset + index] = keys[index] }
        for index in buttonsFrom..<max(buttonsFrom, buttons.count) { record[Self.buttonsOffset + index] = UInt8(truncatingIfNeeded: buttons[index]) }
        record[0] = UInt8(keys.count & 0xff)
        record[1] = UInt8(keys.count >> 8)
        record[2] = UInt8(buttons.count & 0xff)
        record[3] = UInt8(buttons.count >> 8)
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

/// A page of memory the daemon and its watcher share (`memfd_create`), holding one
/// ``HeldCodes`` record: the daemon writes it with plain stores, which cost no system call and
/// wake nobody on the way to a gesture's key, and the watcher reads it once the daemon is gone.
///
/// ```swift
/// let page = try HeldCodesPage()                   // the daemon's, before the watcher starts
/// page.write(HeldCodes(keys: [64]))
/// let seen = try HeldCodesPage(sharing: page.fileDescriptor)   // the watcher's mapping
/// seen.read()                                      // keys 64
/// ```
public final class HeldCodesPage {
    /// The memory file; the watcher gets it as its descriptor 3.
    public let fileDescriptor: Int32
    private let base: UnsafeMutableRawPointer

    /// A new page, nothing held (a new memory file is zeros).
    ///
    /// - Throws: ``SystemError`` when the memory file cannot be made or mapped.
    public convenience init() throws(SystemError) {
        var descriptor = try SystemCall.once("memfd_create") { CLinux_memfd_create("gesture-bridge-held-input", CLinux_MFD_CLOEXEC) }
        // posix_spawn's dup2 onto 3 of a descriptor that is already 3 would keep its
        // close-on-exec: the page is kept above the three standard ones and 3.
        if descriptor <= 3 {
            let low = descriptor
            defer { SystemCall.close(low) }
            descriptor = try SystemCall.once("fcntl(F_DUPFD_CLOEXEC)") { fcntl(low, F_DUPFD_CLOEXEC, 10) }
        }
        do throws(SystemError) {
            try SystemCall.once("ftruncate") { ftruncate(descriptor, off_t(HeldCodes.recordSize)) }
            try self.init(sharing: descriptor)
        } catch {
            SystemCall.close(descriptor)
            throw error
        }
    }

    /// Maps the page of `descriptor` (the watcher's descriptor 3), which it then owns.
    ///
    /// - Throws: ``SystemError`` when it is not a file of at least a record's size that can be
    ///   mapped shared.
    public init(sharing descriptor: Int32) throws(SystemError) {
        var status = stat()
        try SystemCall.once("fstat") { fstat(descriptor, &status) }
        guard status.st_size >= off_t(HeldCodes.recordSize) else { throw SystemError("fstat", code: .invalidArgument) }
        guard let mapped = mmap(nil, HeldCodes.recordSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            throw SystemError("mmap", code: .current)
        }
        fileDescriptor = descriptor
        base = mapped
    }

    /// Stores `held` (``HeldCodes/store(into:)``).
    public func write(_ held: HeldCodes) {
        held.store(into: UnsafeMutableRawBufferPointer(start: base, count: HeldCodes.recordSize))
    }

    /// Stores the codes of `held` from `keysFrom` and `buttonsFrom` on, then its counts: what a
    /// record that held the first ones already needs to hold them all (``write(_:)`` in a few
    /// stores, on the way to a key).
    func append(_ held: HeldCodes, keysFrom: Int, buttonsFrom: Int) {
        held.store(into: UnsafeMutableRawBufferPointer(start: base, count: HeldCodes.recordSize), keysFrom: keysFrom, buttonsFrom: buttonsFrom)
    }

    /// What the page holds now.
    public func read() -> HeldCodes {
        HeldCodes(record: UnsafeRawBufferPointer(start: base, count: HeldCodes.recordSize))
    }

    deinit {
        munmap(base, HeldCodes.recordSize)
        SystemCall.close(fileDescriptor)
    }
}

/// The daemon's side of its watcher: a process of its own that outlives the daemon and lets go of
/// the keys and buttons the daemon held through XTest when the daemon ends without letting go of
/// them.
///
/// The X server keeps a key pressed through XTest down after the client that pressed it is gone
/// — closed, killed or crashed (measured on Xvfb and Xorg 21.1: down 20 s later and after a
/// restart; docs/reliability.md). No code of a daemon that gets `SIGKILL` or crashes runs, so the
/// release has to come from another process. The watcher is started (``ProcessSpawner``: a
/// session of its own, so a terminal's Ctrl+C does not reach it) with a pipe as its standard
/// input and the shared page (``HeldCodesPage``) as its descriptor 3. The daemon keeps in the
/// page what it holds (``HeldCodes``) and never writes to the pipe: when the daemon ends,
/// however it ends, the kernel closes the pipe, and the watcher reads the page and releases,
/// with XTest on a connection of its own, what it says is held. After a clean shutdown that is
/// nothing.
///
/// The page is always at least what may be down on the server: a key is put in before its press
/// is sent (``willHold(_:)``), and taken out only once its release was sent (``confirm(_:)``,
/// after a flush). Releasing a key that is already up changes nothing. Keeping it costs a gesture
/// no system call: a line written to the pipe before each key woke the watcher on the way to
/// the key, and cost the key about 0.08 ms (docs/performance.md, «Latency by drag shape»).
///
/// A watcher that ended is started again on `SIGCHLD` (``reap()``), with the same page.
///
/// ```swift
/// let watch = try HeldKeyWatch(command: ["/proc/self/exe", "--held-input-watcher", ":0", "\(getpid())"])
/// watch.willHold(HeldCodes(keys: [64]))   // before XTestFakeKeyEvent(64, press)
/// display.flush()
/// watch.confirm(HeldCodes(keys: [64]))
/// ```
public final class HeldKeyWatch {
    /// The watcher's command line (`argv[0]` a path).
    private let command: [String]
    /// The watcher's pid.
    public private(set) var pid: Int32 = -1
    /// The pipe's write end, never written: its end is the watcher's signal; -1 once closed.
    private var writeEnd: Int32 = -1
    /// Where the watcher finds what is held.
    private let page: HeldCodesPage
    /// What the page says: a superset of what is down on the server.
    public private(set) var announced = HeldCodes()

    /// Starts the watcher.
    ///
    /// - Throws: ``SystemError`` when the page, the pipe or the process cannot be made.
    public init(command: [String]) throws(SystemError) {
        self.command = command
        page = try HeldCodesPage()
        // Room for every keycode and button: appending on the way to a key never allocates.
        announced.keys.reserveCapacity(256)
        announced.buttons.reserveCapacity(256)
        try start()
    }

    private func start() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        try SystemCall.once("pipe") { pipe(&ends) }
        // Neither end reaches an `exec` child; the watcher gets its end as standard input.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { SystemCall.close(ends[0]) }
        do throws(SystemError) {
            pid = try ProcessSpawner.spawn(command, searchingPath: false, input: ends[0], passing: page.fileDescriptor)
        } catch {
            SystemCall.close(ends[1])
            throw error
        }
        writeEnd = ends[1]
    }

    /// Before a press is sent: the keys and buttons of `holding` the page lacks are added to
    /// it. Releases are not taken out here (the release may not have left yet): see
    /// ``confirm(_:)``.
    public func willHold(_ holding: HeldCodes) {
        holding.keys.withUnsafeBufferPointer { willHold(keys: $0, buttons: holding.buttons) }
    }

    /// ``willHold(_:)`` of keycodes and buttons as the performer keeps them, without making a
    /// ``HeldCodes`` of them: it runs between a gesture's key press and its flush, so it
    /// allocates nothing and stores only what is new.
    public func willHold(keys: UnsafeBufferPointer<UInt8>, buttons: [Int]) {
        let (keysBefore, buttonsBefore) = (announced.keys.count, announced.buttons.count)
        for key in keys where !announced.keys.contains(key) { announced.keys.append(key) }
        for button in buttons where !announced.buttons.contains(button) { announced.buttons.append(button) }
        guard announced.keys.count != keysBefore || announced.buttons.count != buttonsBefore else { return }
        page.append(announced, keysFrom: keysBefore, buttonsFrom: buttonsBefore)
    }

    /// Once every request so far has been sent to the server (after a flush): `holding` is what
    /// is down now, releases included.
    public func confirm(_ holding: HeldCodes) {
        guard holding != announced else { return }
        announced.keys.replaceSubrange(announced.keys.indices, with: holding.keys)
        announced.buttons.replaceSubrange(announced.buttons.indices, with: holding.buttons)
        page.write(announced)
    }

    /// What the watcher would read now.
    public var pageSays: HeldCodes { page.read() }

    /// On `SIGCHLD`: when the watcher has ended, starts a new one on the same page.
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

    /// Closes the pipe: the watcher releases what the page says is held, and ends.
    public func close() {
        guard writeEnd >= 0 else { return }
        SystemCall.close(writeEnd)
        writeEnd = -1
    }

    deinit { close() }
}
