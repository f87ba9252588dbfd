import POSIX

/// Where the config comes from.
public enum ConfigSource: Hashable, Sendable, CustomStringConvertible {
    /// A config file (which may yet turn out missing or unreadable: loading reports that).
    case file(String)
    /// The default config compiled into the binary (``DefaultConfig``).
    case embedded

    /// The path, or ``DefaultConfig/fileName``.
    public var description: String {
        switch self {
        case .file(let path): path
        case .embedded: DefaultConfig.fileName
        }
    }
}

/// How the config is found: the `--config` file, or the search path of docs/interface.md, «Command line».
///
/// The running daemon keeps it, so that a reload looks again: a config created after start
/// (over the embedded default, or over a system-wide one) is the one a reload picks up, and
/// the watch covers every place the search looks.
///
/// ```swift
/// let search = ConfigSearch(explicit: nil, environment: ["HOME": "/home/ann"])
/// search.paths      // ["/home/ann/.config/gesture-bridge/config.toml", "/etc/xdg/gesture-bridge/config.toml"]
/// search.resolve()  // .embedded while neither exists
/// ```
public struct ConfigSearch: Hashable, Sendable {
    /// The `--config` file, which wins even when it does not exist.
    public var explicit: String?
    /// The process environment (`XDG_CONFIG_HOME`, `HOME`, `XDG_CONFIG_DIRS`).
    public var environment: [String: String]

    public init(explicit: String?, environment: [String: String]) {
        self.explicit = explicit
        self.environment = environment
    }

    /// The files the search may pick, in order: the explicit one alone, or the search path.
    public var paths: [String] {
        if let explicit { return [explicit] }
        return ConfigLocator.searchPath(environment: environment)
    }

    /// Looks now: what ``ConfigLocator/resolve(explicit:environment:fileExists:)`` picks.
    public func resolve(fileExists: (String) -> Bool = ConfigLocator.isFile) -> ConfigSource {
        ConfigLocator.resolve(explicit: explicit, environment: environment, fileExists: fileExists)
    }
}

/// Finds the config along the search path of docs/interface.md, «Command line».
///
/// In order: the `--config` file; `$XDG_CONFIG_HOME/gesture-bridge/config.toml` (or
/// `$HOME/.config/gesture-bridge/config.toml`); each `$XDG_CONFIG_DIRS` entry (default
/// `/etc/xdg`) + `/gesture-bridge/config.toml`; the embedded default. As the XDG Base
/// Directory spec asks, empty and relative directories are ignored.
///
/// ```swift
/// let source = ConfigLocator.resolve(explicit: options.config,
///                                    environment: ProcessInfo.processInfo.environment)
/// let config = try Config.load(from: source)
/// ```
public enum ConfigLocator {
    /// The config's path below a config directory.
    public static let relativePath = "gesture-bridge/config.toml"

    /// Picks the config to load.
    ///
    /// - Parameters:
    ///   - explicit: the `--config` argument; it wins even when the file does not exist, so that
    ///     loading reports it rather than silently using another config.
    ///   - environment: the process environment (`XDG_CONFIG_HOME`, `HOME`, `XDG_CONFIG_DIRS`).
    ///   - fileExists: whether a path is an existing file; by default, a look at the file system.
    /// - Returns: the first candidate that exists, or ``ConfigSource/embedded``.
    public static func resolve(
        explicit: String?,
        environment: [String: String],
        fileExists: (String) -> Bool = ConfigLocator.isFile
    ) -> ConfigSource {
        if let explicit { return .file(explicit) }
        return searchPath(environment: environment).first(where: fileExists).map(ConfigSource.file) ?? .embedded
    }

    /// The files looked for when there is no `--config`, in order.
    public static func searchPath(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let home = absoluteDirectory(environment["XDG_CONFIG_HOME"]) {
            directories.append(home)
        } else if let home = absoluteDirectory(environment["HOME"]) {
            directories.append(home == "/" ? "/.config" : home + "/.config")
        }
        let systemDirectories = (environment["XDG_CONFIG_DIRS"] ?? "")
            .split(separator: ":")
            .compactMap { absoluteDirectory(String($0)) }
        if (environment["XDG_CONFIG_DIRS"] ?? "").isEmpty {
            directories.append("/etc/xdg")
        } else {
            directories += systemDirectories
        }
        return directories.map { $0 == "/" ? "/" + relativePath : $0 + "/" + relativePath }
    }

    /// True when `path` names an existing file that is not a directory.
    public static func isFile(_ path: String) -> Bool {
        // Follows symbolic links: a link to a file is a file.
        guard let status = try? Stat(FilePath(path)) else { return false }
        return status.type != .directory
    }

    /// An absolute directory without trailing slashes, or `nil` for unset, empty or relative.
    private static func absoluteDirectory(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        var directory = Substring(value)
        while directory.count > 1, directory.hasSuffix("/") { directory = directory.dropLast() }
        return String(directory)
    }
}
