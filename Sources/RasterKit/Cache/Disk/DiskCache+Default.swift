import Foundation

extension DiskCache {
    /// `$RASTERKIT_CACHE` when it is set (the store's file, for CI jobs that restore it from
    /// their cache), else `$XDG_CACHE_HOME/rasterkit/renders.sqlite`, or
    /// `~/.cache/rasterkit/renders.sqlite` when `XDG_CACHE_HOME` is unset or not an absolute path
    /// (as the XDG base directory spec says).
    public static var defaultURL: URL {
        let environment = EnvironmentVariable.value
        if let path = environment("RASTERKIT_CACHE"), !path.isEmpty { return URL(fileURLWithPath: path) }
        let base: URL
        if let cacheHome = environment("XDG_CACHE_HOME"), cacheHome.hasPrefix("/") {
            base = URL(fileURLWithPath: cacheHome, isDirectory: true)
        } else {
            let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 }
                .map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("rasterkit", isDirectory: true).appendingPathComponent("renders.sqlite")
    }

    /// The process's shared store at ``defaultURL``, opened on first use (creating its
    /// directory) and kept open. Throws ``DiskCacheError`` when it cannot be opened; the next
    /// access tries again.
    ///
    /// It is never deinitialized, so call `flush()` before the process exits.
    public static var `default`: DiskCache {
        get throws {
            try sharedDefault.withLock { shared in
                if let shared { return shared }
                let url = defaultURL
                do {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                            withIntermediateDirectories: true)
                } catch {
                    throw DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                                         message: "cannot create the cache directory: \(error.localizedDescription)",
                                         path: url.path)
                }
                let cache = try DiskCache(at: url)
                shared = cache
                return cache
            }
        }
    }
}

private let sharedDefault = Lock<DiskCache?>(nil)
