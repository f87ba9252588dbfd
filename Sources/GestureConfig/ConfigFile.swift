import Glibc
import POSIX

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
        let descriptor: FileDescriptor
        do throws(SystemError) {
            // O_NOCTTY, which swift-system does not name: a terminal device must not become ours.
            descriptor = try SystemCall.system("open") {
                try FileDescriptor.open(
                    FilePath(path), .readOnly,
                    options: [.closeOnExec, .nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
            }
        } catch {
            switch error.code {
            case .noSuchFileOrDirectory, .notDirectory: throw failure("cannot read the config: no such file")
            case .permissionDenied: throw failure("cannot read the config: permission denied")
            default: throw failure("cannot read the config: \(error.message)")
            }
        }
        defer { SystemCall.close(descriptor.rawValue) }
        let status: Stat
        do throws(SystemError) {
            status = try SystemCall.system("fstat") { try descriptor.stat() }
        } catch {
            throw failure("cannot read the config: \(error.message)")
        }
        switch status.type {
        case .regular: break
        case .directory: throw failure("cannot read the config: it is a directory")
        default: throw failure("cannot read the config: it is not a regular file")
        }
        if let problem = Permissions.problem(ofFile: path, status: status) { throw failure(problem) }
        guard Int(status.size) <= maximumSize else { throw failure(tooLarge(Int(status.size))) }

        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try descriptor.readToEnd(limit: maximumSize)
        } catch {
            throw failure("cannot read the config: \(error.message)")
        }
        // It grew after fstat: refuse it the same way, without reading on.
        guard bytes.count <= maximumSize else { throw failure(tooLarge(bytes.count)) }
        return bytes
    }
}

/// Who, besides the user, can change a config.
enum Permissions {
    /// Why the config at `path` (opened; `status` is its `fstat`) could be changed by another
    /// user, with the fix; `nil` when only the user and root can change it.
    static func problem(ofFile path: String, status: Stat, user: uid_t = geteuid()) -> String? {
        let target = realPath(path) ?? path
        let isLink = (try? FilePath(path).stat(followTargetSymlink: false))?.type == .symbolicLink
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
    static func problem(with status: Stat, user: uid_t) -> Problem? {
        let owner = status.userID.rawValue
        if owner != user && owner != 0 { return .owner(userName(owner).map { "user '\($0)'" } ?? "user \(owner)") }
        let permissions = status.permissions
        // In a sticky directory others may add entries but not remove or rename this one's.
        if status.type == .directory && permissions.contains(.saveText) { return nil }
        if permissions.contains(.otherWrite) { return .writable("every user") }
        let group = status.groupID.rawValue
        if permissions.contains(.groupWrite) && !isPrivateGroup(group, of: owner) {
            return .writable(groupName(group).map { "the users of group '\($0)'" } ?? "group \(group)")
        }
        return nil
    }

    private static func problem(ofDirectory directory: String, user: uid_t) -> Problem? {
        // Gone meanwhile: nothing to judge.
        guard let status = try? FilePath(directory).stat() else { return nil }
        return problem(with: status, user: user)
    }

    /// Whether `group` is `user`'s private group: the user's primary group, named after the
    /// user, with no members listed besides the user.
    static func isPrivateGroup(_ group: gid_t, of user: uid_t) -> Bool {
        guard let account = Accounts.user(user), account.primaryGroup == group,
            let entry = Accounts.group(group), entry.name == account.name
        else { return false }
        return entry.members.allSatisfy { $0 == account.name }
    }

    private static func userName(_ user: uid_t) -> String? { Accounts.user(user)?.name }
    private static func groupName(_ group: gid_t) -> String? { Accounts.group(group)?.name }

    // MARK: - Paths

    /// The canonical absolute path (links resolved), or `nil` when it does not resolve.
    static func realPath(_ path: String) -> String? {
        FilePath(path).resolved.map { String(decoding: $0) }
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a name in the root.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
