import BridgeCore
import Foundation
import GestureTestKit
import Glibc
import Testing

/// The daemon's side of the held-input watcher: what it keeps in the shared page and when, with
/// a stand-in watcher that copies the page to a file when its input ends (the real one is tested
/// end to end in `HeldInputWatcherTests`).
@Suite("the held-input watch")
struct HeldKeyWatchTests {
    @Test("a record keeps the keys and buttons in press order and reads back the same", arguments: [
        HeldCodes(), HeldCodes(keys: [37, 50, 133]), HeldCodes(buttons: [3]), HeldCodes(keys: [64, 23], buttons: [1, 3]),
        HeldCodes(keys: Array(8...255), buttons: Array(1...255)),
    ])
    func recordRoundTrip(_ held: HeldCodes) {
        var record = [UInt8](repeating: 0xaa, count: HeldCodes.recordSize)
        record.withUnsafeMutableBytes { held.store(into: $0) }
        #expect(record.withUnsafeBytes { HeldCodes(record: $0) } == held)
    }

    @Test("a record that cannot be ours reads as a valid release: no keycode below 8, no button 0, no count past the room")
    func foreignRecords() {
        var record = [UInt8](repeating: 0, count: HeldCodes.recordSize)
        record[0] = 0xff; record[1] = 0xff  // 65,535 keys
        record[2] = 3                        // 3 buttons: 0, 3, 0
        record[4] = 7; record[5] = 37        // keycode 7 is no key
        record[4 + 256 + 1] = 3
        let read = record.withUnsafeBytes { HeldCodes(record: $0) }
        #expect(read.keys == [37])
        #expect(read.buttons == [3])
    }

    @Test("a record written over a longer one reads as the new one: the counts come last")
    func shrinking() {
        var record = [UInt8](repeating: 0, count: HeldCodes.recordSize)
        record.withUnsafeMutableBytes { HeldCodes(keys: [37, 50, 64], buttons: [3]).store(into: $0) }
        record.withUnsafeMutableBytes { HeldCodes(keys: [50]).store(into: $0) }
        #expect(record.withUnsafeBytes { HeldCodes(record: $0) } == HeldCodes(keys: [50]))
    }

    @Test("the page is shared: a second mapping of its descriptor sees each write at once, with no system call")
    func pageShared() throws {
        let page = try HeldCodesPage()
        #expect(page.fileDescriptor > 3, "descriptor 3 is the one the watcher gets it as")
        #expect(page.read() == HeldCodes())
        let other = try HeldCodesPage(sharing: dup(page.fileDescriptor))
        page.write(HeldCodes(keys: [64], buttons: [3]))
        #expect(other.read() == HeldCodes(keys: [64], buttons: [3]))
        page.write(HeldCodes())
        #expect(other.read() == HeldCodes())
    }

    @Test("a descriptor that is no page is refused")
    func notAPage() {
        let null = open("/dev/null", O_RDONLY)
        #expect(throws: SystemError.self) { _ = try HeldCodesPage(sharing: null) }
        close(null)
    }

    /// A watcher that waits for the end of its input, then copies its descriptor 3 (the page)
    /// to a file.
    static func standIn() -> (command: [String], file: String) {
        let file = TestScratch.path("held-watch") + ".page"
        return (["/bin/sh", "-c", "cat >/dev/null; cat <&3 > '\(file).part' && mv '\(file).part' '\(file)'"], file)
    }

    /// What the stand-in found in the page when its input ended; nil before.
    static func copied(_ file: String) -> HeldCodes? {
        guard let bytes = FileManager.default.contents(atPath: file), bytes.count >= HeldCodes.recordSize else { return nil }
        return Array(bytes).withUnsafeBytes { HeldCodes(record: $0) }
    }

    @Test("a press is in the page before it is sent, a release only once confirmed, and the watcher reads it when the pipe ends")
    func whatIsKept() throws {
        let (command, file) = Self.standIn()
        defer { unlink(file) }
        let watch = try HeldKeyWatch(command: command)
        watch.willHold(HeldCodes(keys: [37]))
        #expect(watch.pageSays == HeldCodes(keys: [37]))
        watch.willHold(HeldCodes(keys: [37, 50]))
        // Released in Xlib's buffer, not sent yet: the page still has both.
        watch.willHold(HeldCodes(keys: [37]))
        #expect(watch.announced == HeldCodes(keys: [37, 50]))
        #expect(watch.pageSays == HeldCodes(keys: [37, 50]))
        watch.confirm(HeldCodes(keys: [37]))
        #expect(watch.pageSays == HeldCodes(keys: [37]))
        watch.willHold(HeldCodes(keys: [37], buttons: [3]))
        #expect(watch.pageSays == HeldCodes(keys: [37], buttons: [3]))
        let pid = watch.pid
        #expect(Self.copied(file) == nil, "the watcher read the page before its input ended")
        watch.close()
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid, "the watcher did not end at the end of its input")
        #expect(Self.copied(file) == HeldCodes(keys: [37], buttons: [3]))
    }

    @Test("a watcher that ended is started again on SIGCHLD, on the same page")
    func restarted() throws {
        let (command, file) = Self.standIn()
        defer { unlink(file) }
        let watch = try HeldKeyWatch(command: command)
        #expect(watch.reap() == nil)
        watch.willHold(HeldCodes(keys: [64]))
        let first = watch.pid
        kill(first, SIGKILL)
        var line: String?
        #expect(poll(timeout: .seconds(5)) {
            line = watch.reap()
            return line != nil
        })
        #expect(line?.contains("(pid \(first)) was ended by signal 9; started again (pid \(watch.pid))") ?? false, "\(line ?? "")")
        #expect(watch.pid != first && watch.pid > 0)
        let second = watch.pid
        watch.close()
        var status: Int32 = 0
        #expect(waitpid(second, &status, 0) == second)
        #expect(Self.copied(file) == HeldCodes(keys: [64]))
    }
}

/// Polls `condition` every 2 ms until it holds or `timeout` passes.
private func poll(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
    return true
}
