import Glibc

/// Reads a config file, refusing before it reads what it must not use.
///
/// - **Only a regular file**, opened without blocking: a directory, a FIFO (which would block
///   the daemon until someone writes to it) or a device (`/dev/zero` never ends) is refused.
/// - **At most ``maximumSize`` bytes**, judged by `fstat` on the opened file before reading
///   (`truncate -s 2G` on the watched config costs nothing), and reading stops one byte past
///   the limit should the file grow meanwhile.
/// - **Nobody else may change it**, since its `exec` actions run as the user: the file (the
///   target, when it is a symbolic link) must belong to the user or to root and must not be
///   writable by group or others, and no directory above it (above the link and above its
///   target) may be writable by others unless it has the sticky bit (`/tmp`) or belong to
///   another user. Group write access is fine when the group is the owner's private group
///   (Debian's user private groups, with `umask 002`): a group named after its user, the user's
///   primary group, with no other member. Root-owned files and directories are trusted: root
///   can change anything anyway.
///
/// Every refusal names the file and says how to fix it, at `1:1`.
enum ConfigFile {
    /// The largest config accepted, in bytes: 1 MiB. The default config is about 6 KB; a config with
    /// a thousand bindings is about 100 KB.
    static let maximumSize = 1 << 20

    /// The message for a config of `size` bytes.
    static func tooLarge(_ size: Int) -> String {
        "the config is \(size) bytes; a config may be at most 1 MB (\(maximumSize) bytes)"
    }

    /// The bytes of the config at `path`.
    ///
    /// - Throws: ``ConfigErrors`` with one error at `1:1` naming `path`.
    static func read(_ path: String) throws(ConfigErrors) -> [UInt8] {
        func failure(_ message: String) -> ConfigErrors {
            ConfigErrors([ConfigError(file: path, line: 1, column: 1, message: message)])
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw failure("cannot read the config: no such file")
            case EACCES: throw failure("cannot read the config: permission denied")
            default: throw failure("cannot read the config: \(String(cString: strerror(code)))")
            }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw failure("cannot read the config: \(String(cString: strerror(errno)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("cannot read the config: it is a directory")
        default: throw failure("cannot read the config: it is not a regular file")
        }
        if let problem = Permissions.problem(ofFile: path, status: status) { throw failure(problem) }
        guard Int(status.st_size) <= maximumSize else { throw failure(tooLarge(Int(status.st_size))) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the config: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            // It grew after fstat: refuse it the same way, without reading on.
            guard bytes.count <= maximumSize else { throw failure(tooLarge(bytes.count)) }
        }
    }
}

/// Who, besides the user, can change a config.
enum Permissions {
    /// Why the config at `path` (opened; `status` is its `fstat`) could be changed by another
    /// user, with the fix; `nil` when only the user and root can change it.
    static func problem(ofFile path: String, status: stat, user: uid_t = geteuid()) -> String? {
        let target = realPath(path) ?? path
        var link = stat()
        let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        let subject = isLink ? "\(path) (a link to \(target))" : path
        if let problem = problem(with: status, user: user) {
            switch problem {
            case .owner(let owner):
                return "the config \(subject) belongs to \(owner), who could make gesture-bridge run any program as you; "
                    + "fix it with: sudo chown \(userName(user) ?? String(user)) \(target)"
            case .writable(let who):
                return "the config \(subject) is writable by others (\(who)), who could make gesture-bridge run any program as you; "
                    + "fix it with: chmod go-w \(target)"
            }
        }
        // The directories above the file as named, and above its target: whoever can change
        // one of them can put another file in its place.
        var checked: Set<String> = []
        for start in [realPath(parent(of: path)), realPath(parent(of: target))].compactMap({ $0 }) {
            var directory = start
            while true {
                if checked.insert(directory).inserted, let problem = problem(ofDirectory: directory, user: user) {
                    switch problem {
                    case .owner(let owner):
                        return "the config's directory \(directory) belongs to \(owner), who could replace the config "
                            + "\(subject) and make gesture-bridge run any program as you; keep the config in a directory of your own"
                    case .writable(let who):
                        return "the config's directory \(directory) is writable by others (\(who)), who could replace the config "
                            + "\(subject) and make gesture-bridge run any program as you; fix it with: chmod go-w \(directory)"
                    }
                }
                guard directory != "/" else { break }
                directory = parent(of: directory)
            }
        }
        return nil
    }

    /// What lets someone else change a file or directory.
    enum Problem: Equatable {
        /// It belongs to another user (named, or by uid).
        case owner(String)
        /// Its group or everybody may write it: "other users" or "group 'staff'".
        case writable(String)
    }

    /// The problem with a file or directory of status `status`, if any.
    static func problem(with status: stat, user: uid_t) -> Problem? {
        let owner = status.st_uid
        if owner != user && owner != 0 { return .owner(userName(owner).map { "user '\($0)'" } ?? "user \(owner)") }
        let mode = status.st_mode
        let isDirectory = mode & S_IFMT == S_IFDIR
        // In a sticky directory others may add entries but not remove or rename this one's.
        if isDirectory && mode & S_ISVTX != 0 { return nil }
        if mode & S_IWOTH != 0 { return .writable("every user") }
        if mode & S_IWGRP != 0 && !isPrivateGroup(status.st_gid, of: owner) {
            return .writable(groupName(status.st_gid).map { "the users of group '\($0)'" } ?? "group \(status.st_gid)")
        }
        return nil
    }

    private static func problem(ofDirectory directory: String, user: uid_t) -> Problem? {
        var status = stat()
        guard stat(directory, &status) == 0 else { return nil }  // gone meanwhile: nothing to judge
        return problem(with: status, user: user)
    }

    /// Whether `group` is `user`'s private group: the user's primary group, named after the
    /// user, with no members listed besides the user.
    static func isPrivateGroup(_ group: gid_t, of user: uid_t) -> Bool {
        guard let account = passwordEntry(user), account.group == group,
            let entry = groupEntry(group), entry.name == account.name
        else { return false }
        return entry.members.allSatisfy { $0 == account.name }
    }

    // MARK: - Accounts

    private static func userName(_ user: uid_t) -> String? { passwordEntry(user)?.name }
    private static func groupName(_ group: gid_t) -> String? { groupEntry(group)?.name }

    private static func passwordEntry(_ user: uid_t) -> (name: String, group: gid_t)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(user, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return (String(cString: entry.pw_name), entry.pw_gid)
    }

    private static func groupEntry(_ group: gid_t) -> (name: String, members: [String])? {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        guard getgrgid_r(group, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        var members: [String] = []
        if var member = entry.gr_mem {
            while let name = member.pointee {
                members.append(String(cString: name))
                member += 1
            }
        }
        return (String(cString: entry.gr_name), members)
    }

    // MARK: - Paths

    /// The canonical absolute path (links resolved), or `nil` when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a name in the root.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
