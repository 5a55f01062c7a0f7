import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitRemoteCache

/// `--remote-cache URL` and `--remote-timeout SECONDS`: the shared HTTP store, declared once for
/// the commands that render through it (``CacheOptions``) and those that keep golden lockfiles'
/// PNGs in it (`rasterkit goldens`).
package struct RemoteOptions: ParsableArguments {
    /// No flags given: the store of `RASTERKIT_REMOTE_CACHE`, if any.
    package init() {}

    @Option(name: .customLong("remote-cache"),
            help: ArgumentHelp("A shared HTTP cache (nginx WebDAV, bazel-remote): renders are looked up in it before drawing and uploaded to it after, and golden lockfiles keep their PNGs in it (default: $RASTERKIT_REMOTE_CACHE). An Authorization header comes from $RASTERKIT_REMOTE_CACHE_AUTHORIZATION; with $RASTERKIT_REMOTE_CACHE_KEY, objects are signed with that secret and only objects it signed are used.",
                               valueName: "url"))
    package var remoteCache: String?

    @Option(name: .customLong("remote-timeout"),
            help: ArgumentHelp("Seconds a request to the remote cache may take, connecting included (default 1); a remote that fails is not asked again for a while.",
                               valueName: "seconds"))
    package var remoteTimeout: Double = 1

    /// `RASTERKIT_REMOTE_CACHE`.
    package static var variable: String? { EnvironmentVariable.value("RASTERKIT_REMOTE_CACHE") }

    /// The store's URL: `--remote-cache`, else `RASTERKIT_REMOTE_CACHE`; nil for none.
    package var url: URL? {
        guard let text = remoteCache ?? Self.variable, !text.isEmpty else { return nil }
        return URL(string: text)
    }

    /// Usage mistakes: a timeout out of range, an address that is not http(s).
    package func validate() throws {
        guard remoteTimeout > 0, remoteTimeout <= 600 else { throw ValidationError("--remote-timeout must be more than 0 and at most 600 seconds") }
        if let text = remoteCache ?? Self.variable, !text.isEmpty {
            let source = remoteCache != nil ? "--remote-cache" : "RASTERKIT_REMOTE_CACHE"
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("\(source) \(text): give an http:// or https:// URL")
            }
        }
    }

    /// The secret objects are signed with: `RASTERKIT_REMOTE_CACHE_KEY`, or nil.
    package static var signingKey: Data? {
        EnvironmentVariable.value("RASTERKIT_REMOTE_CACHE_KEY").flatMap { $0.isEmpty ? nil : Data($0.utf8) }
    }

    /// The remote tier's options: objects signed with ``signingKey`` when it is set.
    package static var cacheOptions: RemoteCacheOptions {
        var options = RemoteCacheOptions()
        options.signingKey = signingKey
        return options
    }

    /// The store at `url` (``url`` when nil) with `--remote-timeout`, or nil for none.
    package func makeStore(at url: URL? = nil) -> RemoteCache? {
        guard let url = url ?? self.url else { return nil }
        var configuration = RemoteCache.Configuration()
        configuration.requestTimeout = remoteTimeout
        return RemoteCache(url: url, configuration: configuration)
    }
}
