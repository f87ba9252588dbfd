public import GestureConfig

#if canImport(Glibc)
import Glibc
import POSIX
#endif

/// Keeps a running daemon's config in step with the disk: watches every place the config
/// search looks (``FileWatcher``), waits for a save to settle, looks along the search again,
/// and says what to apply — never a file caught half-written.
///
/// Two ways in:
/// - **File changes** (``noteFileEvents(now:)``, then ``dueReload(now:)``): a change starts a
///   settle delay (``settleDelay``); every further change starts it again, so a save made of
///   several writes (truncate, write, write, close) is read once, after its last write. Then:
///   - the search is run again, so a config created after start (over the embedded default,
///     or over a system-wide one) is picked up;
///   - a file that is empty while the config in force has content (a non-atomic save caught
///     between its truncation and its first write, or a new file created empty first) is taken
///     as being written: nothing is applied, and the next change looks again;
///   - the file in force gone (an editor that deletes and re-creates, a directory being
///     replaced) is taken the same way, unless a config earlier on the search path appeared.
/// - **SIGHUP** (``reloadNow()``): an explicit request, answered at once and literally: the
///   search is run again and what it finds is loaded as it is (an empty file is an empty
///   config; no file left means the next one on the search path, or the embedded default).
///
/// The caller applies a ``Attempt/loaded(_:)`` config and then reports it with
/// ``applied(_:)``; until then the previous config stays the one in force.
///
/// ```swift
/// let follower = ConfigFollower(search: search, source: source)
/// // poll follower.fileDescriptor (POLLIN) with follower.timeout(now:) as the timeout, then:
/// follower.noteFileEvents(now: .now)
/// if let attempt = follower.dueReload(now: .now) { apply(attempt) }
/// ```
public final class ConfigFollower {
    /// What a look at the disk found.
    public enum Attempt {
        /// A valid config to apply.
        case loaded(Loaded)
        /// The config found is invalid: the previous one stays in force.
        case invalid(ConfigErrors, ConfigSource)
        /// Nothing to apply yet (a save or a replacement is under way); the text says why.
        case postponed(String)
    }

    /// A valid config and where it came from.
    public struct Loaded {
        /// The config.
        public var config: Config
        /// Where it came from.
        public var source: ConfigSource
        /// Whether its text had any bytes (the embedded default has).
        public var hasContent: Bool
    }

    /// How long file events must stay quiet before the config is read: longer than the gaps
    /// between the writes of one save (editors and `printf > file` write within microseconds
    /// to a few milliseconds), short enough that a reload still feels immediate.
    public static let settleDelay = Duration.milliseconds(150)

    /// Where the config is looked for.
    public let search: ConfigSearch
    /// Where the config in force came from.
    public private(set) var source: ConfigSource
    /// Whether the config in force had content (see ``Loaded/hasContent``).
    private var sourceHadContent: Bool
    private let watcher: FileWatcher?
    /// When the pending file-change reload is due; nil: none pending.
    private var settleDeadline: ContinuousClock.Instant?

    /// Starts following the config.
    ///
    /// - Parameters:
    ///   - search: where the config is looked for.
    ///   - source: where the config in force came from.
    ///   - watch: whether to watch the files (false: SIGHUP only, or inotify unavailable).
    ///   - now: the time now, on the clock later calls use.
    public init(search: ConfigSearch, source: ConfigSource, watch: Bool = true, now: ContinuousClock.Instant = .now) {
        self.search = search
        self.source = source
        sourceHadContent = Self.hasContent(source)
        watcher = watch ? FileWatcher(paths: search.paths) : nil
        // A config that appeared between the first look and the watch: look again at once.
        if watcher != nil, search.resolve() != source { settleDeadline = now }
    }

    /// The inotify descriptor to poll for `POLLIN`; -1 (which `poll` ignores) without a watch.
    public var fileDescriptor: Int32 { watcher?.fileDescriptor ?? -1 }

    /// Whether the files are watched.
    public var isWatching: Bool { watcher != nil }

    /// Reads the watch's events; a change of the config (re)starts the settle delay.
    public func noteFileEvents(now: ContinuousClock.Instant) {
        guard let watcher, watcher.drainChanges() else { return }
        settleDeadline = now + Self.settleDelay
    }

    /// The symlink chains ``newWatchWarnings()`` has told about.
    private var toldOverlong: Set<String> = []

    /// What to warn about the watch that was not said yet: a path whose chain of symlinks is
    /// longer than the kernel follows (``FileWatcher/symlinkHops``) — its changes past the last
    /// link followed go unseen, and nothing can open it. Said again if it comes back after
    /// being fixed.
    public func newWatchWarnings() -> [String] {
        let overlong = watcher?.overlongChains ?? []
        defer { toldOverlong = overlong }
        let hops = FileWatcher.symlinkHops
        return overlong.subtracting(toldOverlong).sorted().map { path in
            "\(path) leads through more than \(hops) symbolic links, more than the kernel follows: changes past the "
                + "\(hops)th link are not seen and the config cannot be opened through it (ELOOP); point a link nearer the file"
        }
    }

    /// Milliseconds until a pending reload is due (0: now), for `poll`; nil when none is.
    public func timeout(now: ContinuousClock.Instant) -> Int32? {
        guard let settleDeadline else { return nil }
        let ms = (settleDeadline - now) / .milliseconds(1)
        return Int32(max(0, min(ms.rounded(.up), Double(Int32.max))))
    }

    /// The file-change reload, once its settle delay has passed; nil before (or without one).
    public func dueReload(now: ContinuousClock.Instant) -> Attempt? {
        guard let deadline = settleDeadline, now >= deadline else { return nil }
        settleDeadline = nil
        return attempt(literally: false)
    }

    /// Looks again now (SIGHUP), taking what it finds as it is; a pending file-change reload
    /// is answered by it too.
    public func reloadNow() -> Attempt {
        settleDeadline = nil
        return attempt(literally: true)
    }

    /// Records that `loaded` is now the config in force.
    public func applied(_ loaded: Loaded) {
        source = loaded.source
        sourceHadContent = loaded.hasContent
    }

    // MARK: - Looking

    private func attempt(literally: Bool) -> Attempt {
        let found = search.resolve()
        if !literally, case .file(let current) = source, !ConfigLocator.isFile(current), !precedes(found, current) {
            return .postponed(
                "\(current) is gone: the previous config stays active until it is back (SIGHUP looks along the search path again)")
        }
        let path: String? = if case .file(let path) = found { path } else { nil }
        let sizeBefore = path.flatMap(Self.size(of:))
        if !literally, let path, sizeBefore == 0, sourceHadContent {
            return .postponed(Self.beingWritten(path))
        }
        let config: Config
        do {
            config = try Config.load(from: found)
        } catch {
            return .invalid(error, found)
        }
        guard let path else { return .loaded(Loaded(config: config, source: found, hasContent: true)) }
        // Truncated while it was read: what was read may be a part, or nothing.
        let sizeAfter = Self.size(of: path)
        if !literally, sizeAfter == 0, sourceHadContent {
            return .postponed(Self.beingWritten(path))
        }
        return .loaded(Loaded(config: config, source: found, hasContent: (sizeAfter ?? 0) > 0))
    }

    /// Whether `found` is a file earlier on the search path than `current`.
    private func precedes(_ found: ConfigSource, _ current: String) -> Bool {
        guard case .file(let path) = found, path != current,
              let a = search.paths.firstIndex(of: path), let b = search.paths.firstIndex(of: current)
        else { return false }
        return a < b
    }

    private static func beingWritten(_ path: String) -> String {
        "\(path) is empty: taken as being written; the previous config stays active until it has content (SIGHUP applies it as it is)"
    }

    private static func hasContent(_ source: ConfigSource) -> Bool {
        guard case .file(let path) = source else { return true }
        return (size(of: path) ?? 0) > 0
    }

    /// The size of the regular file `path` leads to, or nil when there is none. A device, a FIFO
    /// or a directory has no size that says "being written" (`/dev/zero` has 0): loading it gives
    /// the clear refusal instead.
    private static func size(of path: String) -> Int? {
        guard let status = try? SystemCall.system("stat", { try FilePath(path).stat() }), status.type == .regular else { return nil }
        return Int(status.size)
    }
}
