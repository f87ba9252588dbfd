import Glibc

/// A failed system call on a trace file, as a sentence: `cannot open: No such file or directory`.
struct TraceFileError: Error, Hashable, Sendable {
    var message: String
}

extension TraceFileError {
    /// The sentence for a failed call.
    init(_ failure: SystemError) {
        message = "cannot \(failure.operation): \(failure.message)"
    }
}

/// An open file descriptor for a trace: the one place that calls `open`, `read`, `write` and
/// `close` (through ``SystemCall``), turning failures into ``TraceFileError``s. Traces are read
/// and written with plain system calls and a fixed buffer so memory stays flat however long
/// the trace is.
struct TraceFile: Sendable {
    /// The descriptor.
    let descriptor: Int32

    /// Opens `path` for reading. A directory is refused here, where `open` would accept it and
    /// the first `read` would fail.
    static func open(readingFrom path: String) throws(TraceFileError) -> TraceFile {
        let descriptor = try call { () throws(SystemError) in
            try SystemCall.retryingInterrupts("open") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
        }
        var status = stat()
        if (try? SystemCall.retryingInterrupts("fstat", { fstat(descriptor, &status) })) != nil,
           status.st_mode & S_IFMT == S_IFDIR {
            SystemCall.close(descriptor)
            throw TraceFileError(message: "cannot open: Is a directory")
        }
        return TraceFile(descriptor: descriptor)
    }

    /// Creates (or truncates) `path` for writing, with mode 0644 before the umask.
    static func open(writingTo path: String) throws(TraceFileError) -> TraceFile {
        let descriptor = try call { () throws(SystemError) in
            try SystemCall.retryingInterrupts("open") { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        }
        return TraceFile(descriptor: descriptor)
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceFileError) -> Int {
        try Self.call { () throws(SystemError) in
            try SystemCall.retryingInterrupts("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
        }
    }

    /// Writes all of `bytes`, however many `write` calls it takes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceFileError) {
        try Self.call { () throws(SystemError) in try SystemCall.writeAll(descriptor, bytes) }
    }

    /// Writes all of `text` as UTF-8.
    func write(_ text: String) throws(TraceFileError) {
        var text = text
        // `withUTF8` only rethrows untyped errors: carry the typed one out.
        let failure = text.withUTF8 { buffer -> TraceFileError? in
            do throws(TraceFileError) {
                try write(UnsafeRawBufferPointer(buffer))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Closes the descriptor. Errors are ignored: nothing is buffered on our side.
    func close() {
        SystemCall.close(descriptor)
    }

    /// Runs system calls, turning their failure into a ``TraceFileError``.
    private static func call<Result>(_ body: () throws(SystemError) -> Result) throws(TraceFileError) -> Result {
        do throws(SystemError) {
            return try body()
        } catch {
            throw TraceFileError(error)
        }
    }
}
