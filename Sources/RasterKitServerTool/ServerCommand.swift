import ArgumentParser
import Foundation
import Logging
import RasterKit
import RasterKitArguments
import RasterKitCommandOptions
import RasterKitServer

/// `rasterkit-server showcase.yaml --icons icons --port 8080` (or `rasterkit serve …`, which runs
/// this executable): renders manifest components and SVG icons over HTTP (RasterKitServer),
/// until SIGTERM or SIGINT. An executable of its own so that `rasterkit` links no HTTP server.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a manifest's components and a folder of SVG icons as PNG and WebP over HTTP.",
        discussion: """
            Routes: GET /components/<component>/<state>.png?size=WxH&scale=S, \
            GET /icons/<path>.png?size=N&scale=S&tint=RRGGBB (.webp too), /health and /metrics (Prometheus). \
            Responses carry a strong ETag (the render key), answer If-None-Match with 304 without rendering, and \
            are immutable when the URL has v=. The manifest and icon folder are reloaded when they change. \
            `rasterkit serve` runs this command with the same arguments. \
            Prints 'listening on http://HOST:PORT' once it accepts connections (--port 0 picks a free port); \
            SIGTERM finishes the requests under way, then exits.
            """)

    @Argument(help: "The manifest whose components to serve (YAML or JSON).")
    var manifest: String?

    @Option(help: "A folder of SVGs to serve under /icons/.")
    var icons: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @OptionGroup var caching: CacheOptions

    @OptionGroup(title: "Fonts") var fonts: FontOptions

    @Option(name: .customLong("max-pixels"), help: ArgumentHelp("The most pixels one render may have.", valueName: "N"))
    var maxPixels = 4 << 20

    @Option(name: .customLong("max-age"), help: ArgumentHelp("Seconds responses may be cached (Cache-Control max-age) when their URL has no v=.", valueName: "seconds"))
    var maxAge = 3_600

    @Option(name: .customLong("queue-limit"), help: ArgumentHelp("Renders that may wait or draw at once; more are answered 503 with Retry-After.", valueName: "N"))
    var queueLimit = 64

    @Option(name: .customLong("max-connections"),
            help: ArgumentHelp("Connections that may be open at once; more are answered 503 and closed (lowered to fit the open-file limit).",
                               valueName: "N"))
    var maxConnections = 512

    @Option(name: .customLong("signing-key-env"),
            help: ArgumentHelp("Serve only URLs signed (HMAC-SHA256, with exp= and sig=) with the key in this environment variable.", valueName: "name"))
    var signingKeyEnv: String?

    func validate() throws {
        guard manifest != nil || icons != nil else { throw ValidationError("give a manifest, --icons DIR, or both") }
        if let manifest { try PathChecks.requireNonEmpty(manifest, "the manifest") }
        if let icons { try PathChecks.requireNonEmpty(icons, "--icons") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be more than 0") }
        guard maxAge >= 0 else { throw ValidationError("--max-age must be 0 or more") }
        guard queueLimit > 0 else { throw ValidationError("--queue-limit must be more than 0") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be more than 0") }
        if let signingKeyEnv {
            guard let key = ProcessInfo.processInfo.environment[signingKeyEnv], !key.isEmpty else {
                throw ValidationError("--signing-key-env \(signingKeyEnv): that environment variable is not set")
            }
        }
    }

    func run() async throws {
        var configuration = RasterServerConfiguration(manifest: manifest.map { URL(fileURLWithPath: $0) },
                                                      icons: icons.map { URL(fileURLWithPath: $0, isDirectory: true) })
        configuration.fontDirectories = fonts.urls
        configuration.maximumPixels = maxPixels
        configuration.maxAge = maxAge
        configuration.renderQueueLimit = queueLimit
        configuration.maximumConnections = OpenFileLimit.connections(wanted: maxConnections)
        configuration.signingKey = signingKeyEnv.flatMap { ProcessInfo.processInfo.environment[$0] }.map { Data($0.utf8) }
        var logger = Logger(label: "rasterkit.serve")
        logger.logLevel = .notice
        let service: RasterRenderService
        do {
            service = try RasterRenderService(configuration: configuration,
                                              rasterizer: caching.makeRasterizer(limits: configuration.renderLimits, memoryLimit: 256 << 20),
                                              logger: logger)
        } catch {
            // Exit status 2, as every rasterkit command gives up on input it cannot use.
            FileHandle.standardError.write(Data("rasterkit serve: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        do {
            try await RasterServer(service: service, host: host, port: port, logger: logger).run { address in
                // Written at once (not buffered), so a script waiting for the address reads it now.
                FileHandle.standardOutput.write(Data("rasterkit serve: listening on http://\(address)\n".utf8))
            }
        } catch let error as ServerSetupError {
            FileHandle.standardError.write(Data("rasterkit serve: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        try? service.rasterizer.cache.flush()
    }
}
