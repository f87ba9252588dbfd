import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Watches files for changes with inotify, wherever they are and whatever their path leads to
/// later: through editors that save by renaming a new file over the old one, before they
/// exist, through symlinks, and across a directory that is replaced — while staying asleep
/// whatever else happens beside them.
///
/// It watches what a path leads to, not the directories around it. For each path `DIR/NAME`:
/// - **the file itself** (`NAME`'s inode, not followed): written, closed after writing, its
///   attributes — which include its link count, so a file renamed over it or its removal is
///   seen on the old file — removed, renamed away;
/// - **when `NAME` is a symlink**, the link itself the same way (re-pointed with `ln -sfn`,
///   which renames a new link over it), then its target, hop by hop (dotfile managers: stow,
///   home-manager, chezmoi's symlink mode), as far as the kernel follows a chain
///   (``symlinkHops``); a longer one is noted (``overlongChains``) for the daemon to say so —
///   nothing can open such a path either;
/// - **`DIR`** only for itself being removed or renamed (`mv dir dir.old; mkdir dir`), and
///   `DIR`'s own name the same way when it is a symlink (GNU stow's folded directory links);
/// - **only while `NAME` does not exist**, `DIR` for `NAME` being created or renamed into it;
///   when `DIR` does not exist either, the deepest directory on the way that does, for the
///   next name on the way (`~/.config/gesture-bridge` created after the daemon started).
///
/// A directory watch reports every name in it that its mask covers: so no directory is watched
/// for writes or attribute changes of what is in it, and one is watched for names being
/// created only while the path's name is missing. A config kept in a busy directory (`/tmp`,
/// `~`, a dotfiles folder other programs write to) thus never wakes the reader for its
/// neighbours. Every event that can change where a path leads re-arms the watches, so they
/// always follow what the paths lead to now.
///
/// ```swift
/// let watcher = FileWatcher(paths: ["/home/ann/.config/gesture-bridge/config.toml"])
/// // poll watcher.fileDescriptor for POLLIN, then:
/// if watcher?.drainChanges() == true { reload() }
/// ```
public final class FileWatcher {
    /// The descriptor to poll.
    public let fileDescriptor: Int32
    /// The paths watched, as given.
    public let paths: [String]
    /// The names whose creation matters in each watched directory, by watch descriptor (empty:
    /// only the watched file or directory itself matters).
    private var watches: [Int32: Set<String>] = [:]
    /// The paths whose symlink chain is longer than ``symlinkHops`` now, as given: changes
    /// past the last hop followed are not seen.
    public private(set) var overlongChains: Set<String> = []

    /// At most this many symlinks are followed from one path: the kernel's own limit
    /// (`MAXSYMLINKS`), beyond which opening the path fails with `ELOOP` anyway. It was 16, and
    /// a chain of 17 to 40 links — which the daemon reads fine — was silently not followed.
    public static let symlinkHops = 40
    /// A file or symlink on the way: its contents, its attributes and link count (a file
    /// renamed over it, its removal), and it being removed or renamed away.
    static let entryEvents = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB) | selfGoneEvents
    /// A watched inode gone from where it was (removed, renamed).
    static let selfGoneEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
    /// A directory's events about the names in it that can make a missing name appear.
    static let appearEvents = UInt32(IN_CREATE | IN_MOVED_TO)
    /// Events about a watched inode that change where a path leads (re-arm after them).
    private static let rearmEvents = UInt32(IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)

    /// One inode to watch: the path that leads to it, how, and what of it matters.
    struct Watch: Hashable {
        /// The path to give `inotify_add_watch`.
        var path: String
        /// Whether `path`'s last name is followed when it is a symlink (a directory on the way),
        /// or watched itself (a file or symlink of the chain).
        var follow: Bool
        /// The events (no flags).
        var events: UInt32
        /// The names in the directory whose appearance matters.
        var names: Set<String>
    }

    /// Starts watching `paths`; returns nil when inotify is unavailable.
    public init?(paths: [String]) {
        guard let fd = try? SystemCall.retryingInterrupts("inotify_init1", { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) else {
            return nil
        }
        fileDescriptor = fd
        self.paths = paths
        arm()
    }

    /// Starts watching one path; returns nil when inotify is unavailable.
    public convenience init?(path: String) {
        self.init(paths: [path])
    }

    /// Reads pending notifications; true when one concerned a watched path (the file, or a
    /// directory or symlink on its way). Re-arms the watches when what a path leads to changed.
    public func drainChanges() -> Bool {
        var changed = false
        var rearm = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Each event is a fixed `inotify_event` header, then `len` bytes of NUL-padded name.
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            // Non-blocking: `EAGAIN` once everything was read.
            let read = buffer.withUnsafeMutableBytes { bytes in
                try? SystemCall.system("read") { try FileDescriptor(rawValue: fileDescriptor).read(into: bytes) }
            }
            guard let n = read, n > 0 else { break }
            var offset = 0
            while offset + headerSize <= n {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let nameStart = offset + headerSize
                offset = nameStart + length
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: anything may have happened.
                    changed = true
                    rearm = true
                    continue
                }
                // Watches removed by a re-arm still report their removal: not ours any more.
                guard let names = watches[event.wd] else { continue }
                guard length > 0 else {
                    // The watched file, link or directory itself.
                    changed = true
                    if event.mask & Self.rearmEvents != 0 { rearm = true }
                    continue
                }
                let bytes = buffer[nameStart..<min(nameStart + length, n)].prefix { $0 != 0 }
                guard names.contains(String(decoding: bytes, as: UTF8.self)) else { continue }
                // A missing name on the way appeared.
                changed = true
                rearm = true
            }
        }
        if rearm { arm() }
        return changed
    }

    deinit { SystemCall.close(fileDescriptor) }

    // MARK: - Arming

    /// Puts the watches where the paths lead now, and removes those no path needs any more.
    ///
    /// What is on disk may change while this runs (a directory created after it was found
    /// missing, before its parent was watched): it looks again until two looks agree.
    private func arm() {
        var previous: Set<Watch>? = nil
        for _ in 0..<8 {
            let (wanted, overlong) = Self.wantedWatches(for: paths)
            overlongChains = overlong
            if wanted == previous { break }
            previous = wanted
            // Two watches of one inode (a directory on the way and the directory whose name
            // is awaited; two paths to one file) get one descriptor: their events add up. The
            // mask is set anew (not added to), so what an earlier arm wanted goes.
            var events: [Int32: UInt32] = [:]
            var names: [Int32: Set<String>] = [:]
            var last: [Int32: Watch] = [:]
            for asked in wanted.sorted(by: { $0.path != $1.path ? $0.path < $1.path : !$0.follow && $1.follow }) {
                var watch = asked
                var added = add(watch, events: watch.events)
                if added == nil, let standIn = Self.standIn(for: watch) {
                    watch = standIn
                    added = add(watch, events: watch.events)
                }
                guard let wd = added else { continue }  // gone meanwhile: the next look sees that
                events[wd, default: 0] |= watch.events
                names[wd, default: []].formUnion(watch.names)
                last[wd] = watch
            }
            for (wd, watch) in last where events[wd] != watch.events {
                _ = add(watch, events: events[wd] ?? watch.events)
            }
            for wd in watches.keys where names[wd] == nil {
                _ = inotify_rm_watch(fileDescriptor, wd)
            }
            watches = names
        }
    }

    /// What watches a file or link of a chain that cannot be watched itself: inotify needs
    /// read permission on what it watches, and a config made unreadable (`chmod 0`, a refusal
    /// the daemon reports) must still be seen when it is made readable again. Its directory
    /// then watches that name — for its attributes, writes, and it being removed, renamed or
    /// created — until the file can be watched again (the change that allows it re-arms).
    /// Nil for a path that is gone, or a directory on the way.
    static func standIn(for watch: Watch) -> Watch? {
        guard !watch.follow, entryKind(watch.path) != nil else { return nil }
        let (directory, name) = split(watch.path)
        return Watch(path: directory, follow: true, events: nameEvents | selfGoneEvents, names: [name])
    }

    /// A directory's events about a name in it that stands for a file it cannot watch.
    static let nameEvents = UInt32(IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) | appearEvents

    /// Watches `watch`'s inode for `events` (replacing the mask it had); its descriptor, or nil
    /// when the path leads nowhere now.
    private func add(_ watch: Watch, events: UInt32) -> Int32? {
        let flags = watch.follow ? UInt32(IN_ONLYDIR) : UInt32(IN_DONT_FOLLOW)
        return try? SystemCall.retryingInterrupts("inotify_add_watch") { inotify_add_watch(fileDescriptor, watch.path, events | flags) }
    }

    /// The inodes to watch, for `paths` as the file system is now; and the paths whose symlink
    /// chain goes on past ``symlinkHops``.
    static func wantedWatches(for paths: [String]) -> (watches: Set<Watch>, overlong: Set<String>) {
        var wanted: Set<Watch> = []
        var overlong: Set<String> = []
        /// The name `name` awaited in the directory `directory`.
        func expect(_ name: String, in directory: String) {
            wanted.insert(Watch(path: directory, follow: true, events: appearEvents | selfGoneEvents, names: [name]))
        }
        for given in paths {
            var path = given
            var hops = 0
            while true {
                let (directory, name) = split(path)
                guard isDirectory(directory) else {
                    // Wait for the next missing name on the way to appear.
                    if let (existing, next) = deepestExistingAncestor(of: directory) { expect(next, in: existing) }
                    break
                }
                // The directory itself, and its own name when that is a symlink.
                wanted.insert(Watch(path: directory, follow: true, events: selfGoneEvents, names: []))
                if directory != "/", isSymlink(directory) {
                    wanted.insert(Watch(path: directory, follow: false, events: entryEvents, names: []))
                }
                guard let kind = entryKind(path) else {
                    expect(name, in: directory)
                    break
                }
                // A directory where the file should be is watched for going away only: its
                // attributes and writes would be those of everything in it.
                wanted.insert(Watch(path: path, follow: false, events: kind == .directory ? selfGoneEvents : entryEvents, names: []))
                guard kind == .symbolicLink, let target = readLink(path) else { break }
                guard hops < symlinkHops else {
                    overlong.insert(given)
                    break
                }
                hops += 1
                path = target.hasPrefix("/") ? target : (directory == "/" ? "/" : directory + "/") + target
            }
        }
        return (wanted, overlong)
    }

    /// `DIR` and `NAME` of `DIR/NAME`; a bare name is in `.`, `/NAME` in `/`.
    static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// The deepest existing directory above `directory` (itself missing), and the name below it
    /// on the way to `directory`.
    private static func deepestExistingAncestor(of directory: String) -> (String, String)? {
        var child = directory
        while true {
            let (parent, name) = split(child)
            if isDirectory(parent) { return (parent, name) }
            if parent == child || parent == "/" || parent == "." { return nil }
            child = parent
        }
    }

    /// Whether `path` leads to a directory (through symlinks).
    private static func isDirectory(_ path: String) -> Bool {
        (try? SystemCall.system("stat") { try FilePath(path).stat() })?.type == .directory
    }

    /// Whether `path`'s last name is a symlink.
    private static func isSymlink(_ path: String) -> Bool {
        entryKind(path) == .symbolicLink
    }

    /// What `path`'s last name is (not followed), or nil when there is nothing by that name.
    private static func entryKind(_ path: String) -> FileType? {
        (try? SystemCall.system("lstat") { try FilePath(path).stat(followTargetSymlink: false) })?.type
    }

    /// The target of the symlink at `path`, or nil when it is not one.
    private static func readLink(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            try? SystemCall.retryingInterrupts("readlink") {
                readlink(path, UnsafeMutableRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count)
            }
        }
        guard let count, count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
