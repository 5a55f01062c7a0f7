import Foundation
import RasterKit
import RasterKitBatch

/// What the server can render, as loaded at one moment: the manifest's components and the icon
/// folder's SVGs. Immutable; a change on disk loads a new catalog, which replaces this one
/// atomically (requests under way finish with the one they started with).
final class RenderCatalog: Sendable {
    /// The manifest's components, by name; empty without a manifest.
    let components: [String: Manifest.Component]
    /// The manifest, which resolves a parameterised component's states; nil without one.
    let manifest: Manifest?
    /// The icon folder; nil without one.
    let icons: IconFolder?
    /// The stamps of every input as they were before loading, to notice the next change.
    let stamps: [String: FileChangeStamp]
    /// Render identities of requests served from this catalog.
    let identities = RenderIdentityMemo()

    /// Loads the manifest and indexes the icon folder that `configuration` names.
    init(configuration: RasterServerConfiguration) throws(ServerSetupError) {
        // Stamped before reading, so a change made while loading is noticed next time.
        var stamps: [String: FileChangeStamp] = [:]
        let limits = configuration.renderLimits
        if let manifestURL = configuration.manifest {
            stamps[manifestURL.path] = FileChangeStamp(path: manifestURL.path)
            let manifest: Manifest
            do {
                manifest = try Manifest(contentsOf: manifestURL, limits: limits, fontDirectories: configuration.fontDirectories)
            } catch {
                throw ServerSetupError(error.problems.map(\.description).joined(separator: "\n"))
            }
            stamps.merge(Self.neighbourStamps(of: manifestURL)) { first, _ in first }
            components = Dictionary(manifest.components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            self.manifest = manifest
        } else {
            components = [:]
            manifest = nil
        }
        if let iconsURL = configuration.icons {
            stamps.merge(IconFolder.stamps(of: iconsURL)) { first, _ in first }
            icons = try IconFolder(directory: iconsURL, limits: limits)
        } else {
            icons = nil
        }
        self.stamps = stamps
    }

    /// The stamps of every input `configuration` names, as they are now: different from a
    /// catalog's ``stamps`` when an input changed since it was loaded.
    static func currentStamps(configuration: RasterServerConfiguration) -> [String: FileChangeStamp] {
        var now: [String: FileChangeStamp] = [:]
        if let manifestURL = configuration.manifest {
            now[manifestURL.path] = FileChangeStamp(path: manifestURL.path)
            now.merge(Self.neighbourStamps(of: manifestURL)) { first, _ in first }
        }
        if let iconsURL = configuration.icons {
            now.merge(IconFolder.stamps(of: iconsURL)) { first, _ in first }
        }
        return now
    }

    /// The files beside the manifest, where its layers' PNGs and SVGs usually are: a change there
    /// reloads too. Not recursive, so a manifest at the top of a large tree stays cheap to watch
    /// (files in subfolders reload when the manifest itself is touched).
    private static func neighbourStamps(of manifest: URL) -> [String: FileChangeStamp] {
        let folder = manifest.deletingLastPathComponent().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var stamps: [String: FileChangeStamp] = [folder: FileChangeStamp(path: folder)]
        for name in names where !name.hasPrefix(".") {
            stamps[folder + "/" + name] = FileChangeStamp(path: folder + "/" + name)
        }
        return stamps
    }
}
