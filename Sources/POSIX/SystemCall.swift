@_exported public import SystemPackage
public import Glibc

/// A failed system call: the call and the `errno` it failed with (swift-system's ``Errno``).
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, as a message names it (`open`, `read`, `waitpid` …).
    public var operation: String
    /// Why it failed.
    public var code: Errno

    public init(_ operation: String, code: Errno) {
        self.operation = operation
        self.code = code
    }

    /// The C library's text for ``code``: `No such file or directory`.
    public var message: String { code.description }

    /// `open: No such file or directory`.
    public var description: String { "\(operation): \(message)" }
}

extension Errno {
    /// The value `errno` has now (swift-system keeps its own reader internal).
    public static var current: Errno { Errno(rawValue: errno) }
}

/// The one way gesture-bridge makes system calls: failures become ``SystemError``s, and an
/// interrupted call is repeated unless repeating it would be wrong.
///
/// What swift-system wraps (`open`, `read`, `write`, `stat` …, through ``FileDescriptor``,
/// ``FilePath`` and ``Stat``) goes through it, its `Errno` named by the call with
/// ``system(_:_:)``; the calls it does not wrap (`flock`, `inotify_add_watch`, `signalfd`,
/// `posix_spawn` …) are made here with the same rules. The daemon blocks the signals it handles
/// (see `SignalChannel`), but others (`SIGCONT` after a stop, a debugger's) still interrupt a
/// blocking call with `EINTR`.
///
/// ```swift
/// let fd = try SystemCall.retryingInterrupts("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
/// let status = try SystemCall.system("fstat") { try FileDescriptor(rawValue: fd).stat() }
/// SystemCall.close(fd)
/// ```
public enum SystemCall {
    /// Makes a call that returns -1 and sets `errno` on failure, once.
    ///
    /// For calls that must not simply be repeated when interrupted; `EINTR` is thrown like any
    /// other failure.
    ///
    /// - Parameters:
    ///   - operation: The call's name, for the error.
    ///   - body: The call.
    /// - Returns: What the call returned, when it was not -1.
    /// - Throws: ``SystemError`` with `errno`.
    @discardableResult
    public static func once<Result: BinaryInteger>(_ operation: String, _ body: () -> Result) throws(SystemError) -> Result {
        let result = body()
        guard result == -1 else { return result }
        throw SystemError(operation, code: .current)
    }

    /// Makes a call that returns -1 and sets `errno` on failure, again for as long as a signal
    /// interrupts it.
    ///
    /// - Parameters:
    ///   - operation: The call's name, for the error.
    ///   - body: The call; it must be safe to repeat after `EINTR` (not `close`, see ``close(_:)``).
    /// - Returns: What the call returned, when it was not -1.
    /// - Throws: ``SystemError`` with `errno`, never ``Errno/interrupted``.
    @discardableResult
    public static func retryingInterrupts<Result: BinaryInteger>(
        _ operation: String, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            do throws(SystemError) {
                return try once(operation, body)
            } catch where error.code == .interrupted {
                continue
            }
        }
    }

    /// Makes a call that returns 0 or an error number, and does not set `errno`
    /// (`posix_spawn` and its helpers, `pthread_sigmask`).
    ///
    /// - Throws: ``SystemError`` with the returned number.
    public static func returningErrno(_ operation: String, _ body: () -> Int32) throws(SystemError) {
        let result = body()
        guard result == 0 else { throw SystemError(operation, code: Errno(rawValue: result)) }
    }

    /// Makes a swift-system call (which retries `EINTR` itself, by default), naming its failure
    /// `operation`.
    ///
    /// - Throws: ``SystemError`` with the ``Errno`` swift-system threw.
    public static func system<Result>(_ operation: String, _ body: () throws -> Result) throws(SystemError) -> Result {
        do {
            return try body()
        } catch let code as Errno {
            throw SystemError(operation, code: code)
        } catch {
            // swift-system throws nothing but Errno; should that change, say what happened.
            throw SystemError("\(operation) (\(error))", code: .ioError)
        }
    }

    /// Writes all of `bytes` to `descriptor`, however many `write` calls it takes (swift-system's
    /// `writeAll`, which retries `EINTR` and short writes).
    ///
    /// - Throws: ``SystemError`` for `write`.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        _ = try system("write") { try FileDescriptor(rawValue: descriptor).writeAll(bytes) }
    }

    /// Waits with `poll(2)` until a descriptor is ready or `timeout` milliseconds pass (-1: no
    /// limit).
    ///
    /// An interrupted `poll` returns 0, nothing ready, instead of being repeated: a repeat would
    /// start the whole timeout again, so the caller works out the timeout anew.
    ///
    /// - Returns: How many descriptors are ready.
    /// - Throws: ``SystemError`` for `poll`.
    @discardableResult
    public static func poll(_ descriptors: inout [pollfd], timeout: Int32) throws(SystemError) -> Int {
        do throws(SystemError) {
            return Int(try once("poll") { Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout) })
        } catch where error.code == .interrupted {
            return 0
        }
    }

    /// Closes `descriptor`, once, ignoring failures.
    ///
    /// Never repeated: Linux frees the descriptor even when `close` is interrupted, so a repeat
    /// could close a descriptor that another thread has just been given. Nothing is buffered on
    /// our side, so a failure loses nothing that could be saved.
    public static func close(_ descriptor: Int32) {
        _ = try? FileDescriptor(rawValue: descriptor).close()
    }
}
