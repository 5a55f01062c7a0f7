import Foundation
import RasterKit
import RasterKitBatch

/// Batch manifests (YAML or JSON): loading must end in a manifest or a ``ManifestError`` listing
/// problems. Paths resolve inside an empty folder, so no file outside it is ever read.
func fuzzManifest(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    _ = try? Manifest(data: data, file: "fuzz.yaml", directory: emptyFolder, limits: .untrusted)
    return 0
}

/// A folder with nothing in it, made once per process and removed when it exits.
private let emptyFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rasterkit-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { _ = emptyFolder.path.withCString { rmdir($0) } }
    return url
}()
