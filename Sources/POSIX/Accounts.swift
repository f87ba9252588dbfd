public import Glibc

/// Users and groups from the system's account database (`getpwuid_r`, `getgrgid_r`: files,
/// LDAP or whatever NSS is set up for), for messages and for judging who may write a file.
///
/// ```swift
/// Accounts.user(geteuid())?.name          // "ann"
/// Accounts.group(getegid())?.members      // [] for a user's private group
/// ```
public enum Accounts {
    /// A user's name and primary group.
    public struct User: Hashable, Sendable {
        public var name: String
        public var primaryGroup: gid_t
    }

    /// A group's name and the members it lists (not the users whose primary group it is).
    public struct Group: Hashable, Sendable {
        public var name: String
        public var members: [String]
    }

    /// The user `id`, or `nil` when the database has no such user.
    public static func user(_ id: uid_t) -> User? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        // Large enough for any real entry; getpwuid_r says ERANGE otherwise, and there is no user.
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(id, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return User(name: String(cString: entry.pw_name), primaryGroup: entry.pw_gid)
    }

    /// The group `id`, or `nil` when the database has no such group.
    public static func group(_ id: gid_t) -> Group? {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        // Groups list members: more room than for a user.
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        guard getgrgid_r(id, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        var members: [String] = []
        if var member = entry.gr_mem {
            while let name = member.pointee {
                members.append(String(cString: name))
                member += 1
            }
        }
        return Group(name: String(cString: entry.gr_name), members: members)
    }
}
