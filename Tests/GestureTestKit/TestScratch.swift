import Glibc
import Synchronization

/// Where a test process keeps its files — configs, traces, logs, X servers' sockets, the homes
/// of the daemons it starts — so that a run of the suite leaves nothing in `/tmp`.
///
/// Everything goes below one directory of the process's own, `$TMPDIR/gesture-bridge-tests-PID`
/// (`/tmp` without `TMPDIR`), removed with all it holds when the process exits. A file a test
/// forgets, or one it cannot remove (a failing `#require` ends a test before its clean-up), goes
/// with it. A directory of an earlier run whose process is gone (killed, or crashed, before it
/// could clean up) is removed when the next run makes its own. `GB_KEEP_X_LOGS=1` keeps it all.
///
/// ```swift
/// let home = TestScratch.path("daemon-home")      // …/gesture-bridge-tests-1234/daemon-home-7
/// mkdir(home, 0o700)
/// ```
public enum TestScratch {
    /// This process's directory, made on first use.
    public static let root: String = {
        let parent = temporaryParent
        removeLeftovers(in: parent)
        let root = parent + "/" + prefix + String(getpid())
        removeTree(root)
        guard mkdir(root, 0o700) == 0 else { fatalError("cannot make \(root): \(String(cString: strerror(errno)))") }
        // GB_KEEP_X_LOGS: the X servers' logs (and everything else) stay for a look afterwards.
        if getenv("GB_KEEP_X_LOGS") == nil { atexit { TestScratch.removeTree(TestScratch.root) } }
        return root
    }()

    /// A path below ``root`` that nothing has used yet: `NAME-N`, N counting up in this
    /// process. Nothing is created there.
    ///
    /// - Parameter name: what it is for, to tell the files apart when they are kept
    ///   (`GB_KEEP_X_LOGS=1` keeps ``root`` and all in it when the process exits).
    public static func path(_ name: String) -> String {
        root + "/" + name + "-" + String(nextNumber())
    }

    // MARK: - Private

    private static let prefix = "gesture-bridge-tests-"

    /// `$TMPDIR`, else `/tmp`, as Foundation's temporary directory is found.
    private static var temporaryParent: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), value.hasPrefix("/") else { return "/tmp" }
        var path = value
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static let counter = Mutex(0)

    private static func nextNumber() -> Int {
        counter.withLock { count in
            count += 1
            return count
        }
    }

    /// Removes `gesture-bridge-tests-PID` directories in `parent` whose process is gone.
    private static func removeLeftovers(in parent: String) {
        guard let directory = opendir(parent) else { return }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH only when no process has that PID.
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(parent + "/" + name) }
        }
        closedir(directory)
        for path in stale { removeTree(path) }
    }

    /// Removes `path` and everything below it, without following symbolic links.
    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = entryName(entry)
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(directory)
            // Owner-only or read-only directories a test made: open them up to empty them.
            chmod(path, 0o700)
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The name of a directory entry `readdir` returned, read in place up to its NUL: the entry
    /// is only as long as its name (`d_reclen`), so copying `d_name` whole reads up to 255 bytes
    /// past it, which crashed a suite once a big `/tmp` put an entry at the end of a page.
    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let name = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: name.assumingMemoryBound(to: CChar.self))
    }
}
