import BridgeCore
import Glibc
import Testing

@Suite("the system call chokepoint")
struct SystemCallTests {
    /// A fake system call: fails with each of `failures` in turn (-1 and `errno`), then returns
    /// `result`; counts its calls.
    private final class FakeCall {
        var failures: [Int32]
        let result: Int
        private(set) var calls = 0

        init(failing failures: [Int32], then result: Int = 7) {
            self.failures = failures
            self.result = result
        }

        func callAsFunction() -> Int {
            calls += 1
            guard !failures.isEmpty else { return result }
            errno = failures.removeFirst()
            return -1
        }
    }

    @Test("a call interrupted by a signal is made again until it is not")
    func retriesInterrupts() throws {
        let call = FakeCall(failing: [EINTR, EINTR])
        #expect(try SystemCall.retryingInterrupts("read") { call() } == 7)
        #expect(call.calls == 3)
    }

    @Test("a failure becomes an error with the call's name, its errno and the system's text")
    func errnoBecomesTypedError() {
        let call = FakeCall(failing: [EINTR, ENOENT])
        let error = #expect(throws: SystemError.self) { try SystemCall.retryingInterrupts("open") { call() } }
        #expect(error == SystemError("open", code: Errno(rawValue: ENOENT)))
        #expect(error?.message == "No such file or directory")
        #expect(error?.description == "open: No such file or directory")
        #expect(call.calls == 2)
    }

    @Test("a call made once is not repeated when interrupted")
    func onceDoesNotRetry() {
        let call = FakeCall(failing: [EINTR])
        #expect(throws: SystemError("poll", code: .interrupted)) { try SystemCall.once("poll") { call() } }
        #expect(call.calls == 1)
    }

    @Test("a call that returns its error number fails with that number, whatever errno says")
    func returnedErrno() {
        errno = 0
        #expect(throws: SystemError("posix_spawnp", code: Errno(rawValue: EACCES))) {
            try SystemCall.returningErrno("posix_spawnp") { EACCES }
        }
        #expect(throws: Never.self) { try SystemCall.returningErrno("posix_spawnp") { 0 } }
    }

    @Test("writeAll writes every byte, and its failure is write's")
    func writeAll() throws {
        var ends: [Int32] = [0, 0]
        try SystemCall.retryingInterrupts("pipe") { pipe(&ends) }
        defer { ends.forEach(SystemCall.close) }
        let text = Array("one line\n".utf8)
        try text.withUnsafeBytes { try SystemCall.writeAll(ends[1], $0) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { bytes in
            try SystemCall.retryingInterrupts("read") { read(ends[0], bytes.baseAddress, bytes.count) }
        }
        #expect(Array(buffer[..<count]) == text)
        // The read end of a pipe is no descriptor to write to.
        #expect(throws: SystemError("write", code: Errno(rawValue: EBADF))) {
            try text.withUnsafeBytes { try SystemCall.writeAll(ends[0], $0) }
        }
    }

    @Test("poll reports a readable descriptor, and nothing when the timeout passes")
    func poll() throws {
        var ends: [Int32] = [0, 0]
        try SystemCall.retryingInterrupts("pipe") { pipe(&ends) }
        defer { ends.forEach(SystemCall.close) }
        var descriptors = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&descriptors, timeout: 0) == 0)
        try [UInt8(1)].withUnsafeBytes { try SystemCall.writeAll(ends[1], $0) }
        #expect(try SystemCall.poll(&descriptors, timeout: 1000) == 1)
        #expect(descriptors[0].revents & Int16(POLLIN) != 0)
    }
}
