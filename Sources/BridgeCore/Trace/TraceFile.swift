import Glibc

/// A failed system call on a trace file, as a sentence: `cannot open: No such file or directory`.
struct TraceFileError: Error, Hashable, Sendable {
    var message: String

    /// The error for `operation` with the current `errno`.
    static func lastError(_ operation: String) -> TraceFileError {
        TraceFileError(message: "cannot \(operation): \(String(cString: strerror(errno)))")
    }
}

/// An open file descriptor for a trace: the one place that calls `open`, `read`, `write` and
/// `close`, turning failures into ``TraceFileError``s. Traces are read and written with plain
/// system calls and a fixed buffer so memory stays flat however long the trace is.
struct TraceFile: Sendable {
    /// The descriptor.
    let descriptor: Int32

    /// Opens `path` for reading. A directory is refused here, where `open` would accept it and
    /// the first `read` would fail.
    static func open(readingFrom path: String) throws(TraceFileError) -> TraceFile {
        let descriptor = retryingInterrupts { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .lastError("open") }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            _ = Glibc.close(descriptor)
            throw TraceFileError(message: "cannot open: Is a directory")
        }
        return TraceFile(descriptor: descriptor)
    }

    /// Creates (or truncates) `path` for writing, with mode 0644 before the umask.
    static func open(writingTo path: String) throws(TraceFileError) -> TraceFile {
        let descriptor = retryingInterrupts {
            Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw .lastError("open") }
        return TraceFile(descriptor: descriptor)
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceFileError) -> Int {
        let count = retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
        guard count >= 0 else { throw .lastError("read") }
        return count
    }

    /// Writes all of `bytes`, however many `write` calls it takes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceFileError) {
        var offset = 0
        while offset < bytes.count {
            let count = retryingInterrupts {
                Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            guard count >= 0 else { throw .lastError("write") }
            offset += count
        }
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
        _ = Glibc.close(descriptor)
    }
}

/// Repeats a system call for as long as a signal interrupts it.
private func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
