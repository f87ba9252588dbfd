internal import CX11
import BridgeCore
import Glibc
public import Logging

/// The watcher's side of ``HeldKeyWatch``: a process apart from the daemon that waits for the end
/// of its standard input — the daemon ended, however it ended — and then releases with XTest what
/// the page it shares with the daemon (``HeldCodesPage``, its descriptor 3) says is held.
///
/// The X server does not release what an XTest client held when the client goes (docs/reliability.md):
/// a key pressed through XTest sits on the server's XTest keyboard, which every XTest client
/// shares, until someone releases it. A release from this connection is such a release; one of a
/// key that is already up changes nothing.
///
/// The watcher ignores SIGINT, SIGTERM, SIGHUP and SIGQUIT: it ends when the daemon does (systemd
/// sends SIGTERM to the whole service at a stop, and the watcher has to outlive the daemon). It
/// connects at start, so that a release does not wait for a connection, and follows the
/// connection: when the server goes, what was held went with it, and the watcher ends. When the
/// server does not answer (stopped), the release waits until it does.
///
/// ```swift
/// exit(HeldInputWatcher.run(display: ":0", daemon: 4242, logger: logger))
/// ```
public enum HeldInputWatcher {
    /// Runs until standard input ends, releases what is held, and returns the exit code
    /// (0; 1 when what was held could not be released, or there is no page to read it from).
    ///
    /// - Parameters:
    ///   - name: the display the daemon runs on.
    ///   - daemon: the daemon's pid, for the log.
    ///   - input: the pipe whose end says the daemon is gone (standard input).
    ///   - page: the descriptor of the page the daemon keeps what it holds in (3).
    ///   - logger: where the release is logged (the daemon's standard error: its log).
    public static func run(display name: String, daemon: Int32, input: Int32 = 0, page: Int32 = 3, logger: Logger) -> Int32 {
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { Glibc.signal(signal, SIG_IGN) }
        let shared: HeldCodesPage
        do throws(SystemError) {
            shared = try HeldCodesPage(sharing: page)
        } catch {
            logger.error("held-input watcher: no page of what gesture-bridge (pid \(daemon)) holds on descriptor \(page) (\(error)): nothing can be released")
            return 1
        }
        var display = try? X11Display(name: name)
        display?.onConnectionLost { _ in }
        // It waits as long as the daemon runs: the pages start-up mapped (argument parsing, X
        // set-up) are let go of, as the idle daemon's are.
        _ = ResidentPages.trim()
        var buffer = [UInt8](repeating: 0, count: 256)
        reading: while true {
            var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
            if let display { descriptors.append(pollfd(fd: display.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)) }
            guard (try? SystemCall.poll(&descriptors, timeout: -1)) != nil else { break }
            if descriptors.count > 1, descriptors[1].revents != 0, let connected = display {
                // Nothing is selected; the server still sends what every client gets (MappingNotify).
                while connected.nextEvent() != nil {}
                if connected.isConnectionLost {
                    logger.debug("held-input watcher: X display \(name) is gone, and what gesture-bridge held with it")
                    return 0
                }
            }
            guard descriptors[0].revents != 0 else { continue }
            // The daemon writes nothing: anything read is not its, and only the end counts.
            let count = buffer.withUnsafeMutableBytes { bytes in
                (try? SystemCall.retryingInterrupts("read") { read(input, bytes.baseAddress, bytes.count) }) ?? 0
            }
            // End of input: the daemon closed the pipe or died.
            guard count > 0 else { break reading }
        }
        let held = shared.read()
        guard !held.isEmpty else { return 0 }
        if display?.isConnectionLost ?? true {
            display = try? X11Display(name: name)
            display?.onConnectionLost { _ in }
        }
        guard let display else {
            logger.error("gesture-bridge (pid \(daemon)) ended holding \(held), and X display \(name) cannot be reached to release them")
            return 1
        }
        do throws(X11Error) {
            try release(held, on: display)
        } catch {
            logger.error("gesture-bridge (pid \(daemon)) ended holding \(held), which could not be released: \(error)")
            return 1
        }
        logger.notice("gesture-bridge (pid \(daemon)) ended holding \(held): released")
        return 0
    }

    /// Releases `held` through XTest, buttons then keys, each in reverse press order (as the
    /// daemon's own ``X11ActionPerformer/releaseHeld()``), and waits until the server has them.
    static func release(_ held: HeldCodes, on display: X11Display) throws(X11Error) {
        try display.call("release held input", sync: true) { handle in
            for button in held.buttons.reversed() { XTestFakeButtonEvent(handle, UInt32(button), 0, 0) }
            for key in held.keys.reversed() { XTestFakeKeyEvent(handle, UInt32(key), 0, 0) }
        }
    }
}

extension HeldCodes {
    /// What a performer holds, as its watcher is told it.
    init(_ held: HeldInput) {
        self.init(keys: held.keys.map(\.rawValue), buttons: held.buttons)
    }
}
