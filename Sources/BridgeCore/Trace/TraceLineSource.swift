import Glibc

/// Splits a trace into lines through one fixed-size buffer, from a file or from bytes in memory
/// (tests), by the same code path.
///
/// Memory use is the buffer plus the longest line so far (at most ``maximumLineLength``), however
/// long the trace is. A class because it owns the file descriptor.
final class TraceLineSource {
    /// Where the bytes come from.
    private enum Input {
        case file(TraceFile)
        case memory([UInt8], offset: Int)
    }

    /// The default read size: large enough that reads are few, small enough not to matter.
    static let defaultChunkSize = 64 * 1024
    /// The longest line accepted. A trace line is well under 200 bytes; anything near this
    /// limit is not a trace, and refusing it keeps memory bounded.
    static let maximumLineLength = 1 << 20

    private var input: Input
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var atEndOfInput = false

    /// The current line's bytes, without its line feed.
    private(set) var line: [UInt8] = []
    /// The current line's 1-based number (the one being read, when reading fails); 0 before the
    /// first line.
    private(set) var lineNumber = 0

    /// Reads from an open file, which the source closes when it goes away.
    init(file: TraceFile, chunkSize: Int = TraceLineSource.defaultChunkSize) {
        input = .file(file)
        chunk = Array(repeating: 0, count: chunkSize)
    }

    /// Reads from bytes in memory, in chunks of `chunkSize` like a file.
    init(bytes: [UInt8], chunkSize: Int = TraceLineSource.defaultChunkSize) {
        input = .memory(bytes, offset: 0)
        chunk = Array(repeating: 0, count: chunkSize)
    }

    deinit {
        if case .file(let file) = input { file.close() }
    }

    /// Moves to the next line. Returns `false` at the end of the input; a last line without a
    /// line feed still counts as a line.
    func advance() throws(TraceProblem) -> Bool {
        line.removeAll(keepingCapacity: true)
        lineNumber += 1
        while true {
            if chunkStart == chunkEnd {
                if atEndOfInput { break }
                try refill()
                if chunkStart == chunkEnd { break }
            }
            let (end, foundLineFeed) = chunk.withUnsafeBufferPointer { buffer in
                let start = buffer.baseAddress! + chunkStart
                guard let found = memchr(start, 0x0A, chunkEnd - chunkStart) else { return (chunkEnd, false) }
                return (start.distance(to: found.assumingMemoryBound(to: UInt8.self)) + chunkStart, true)
            }
            guard line.count + (end - chunkStart) <= Self.maximumLineLength else {
                throw TraceProblem("line is longer than \(Self.maximumLineLength) bytes")
            }
            line.append(contentsOf: chunk[chunkStart..<end])
            chunkStart = foundLineFeed ? end + 1 : end
            if foundLineFeed { return true }
        }
        guard !line.isEmpty else {
            lineNumber -= 1
            return false
        }
        return true
    }

    /// Reads the next chunk; leaves the chunk empty and marks the end when there is no more.
    private func refill() throws(TraceProblem) {
        chunkStart = 0
        chunkEnd = 0
        switch input {
        case .file(let file):
            // `withUnsafeMutableBytes` only rethrows untyped errors: carry the typed one out.
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(TraceFileError) -> Int in try file.read(into: buffer) }
            }
            switch result {
            case .success(let count): chunkEnd = count
            case .failure(let error): throw TraceProblem(error.message)
            }
        case .memory(let bytes, let offset):
            let count = min(chunk.count, bytes.count - offset)
            chunk.replaceSubrange(0..<count, with: bytes[offset..<(offset + count)])
            input = .memory(bytes, offset: offset + count)
            chunkEnd = count
        }
        if chunkEnd == 0 { atEndOfInput = true }
    }
}
