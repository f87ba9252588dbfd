internal import Glibc

/// Reading a whole file, bounded.
extension FileDescriptor {
    /// Reads from the current offset to the end of the file, but stops once more than `limit`
    /// bytes have come: a caller that must refuse a file over a size reads `limit + 1` at most,
    /// however large the file is or grows while it is read.
    ///
    /// Reads in 64 KiB chunks, so it suits `/proc` files, whose size `stat` does not tell.
    ///
    /// ```swift
    /// let bytes = try descriptor.readToEnd(limit: 1 << 20)
    /// if bytes.count > 1 << 20 { /* too large */ }
    /// ```
    ///
    /// - Throws: ``SystemError`` for `read` (swift-system's, which retries `EINTR`).
    public func readToEnd(limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = try SystemCall.system("read") { try chunk.withUnsafeMutableBytes { try read(into: $0) } }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

extension FilePath {
    /// The canonical absolute path (links resolved, `realpath(3)`), or `nil` when it does not
    /// resolve.
    public var resolved: FilePath? {
        withPlatformString { path in
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return FilePath(platformString: resolved)
        }
    }
}
