import Foundation
import RasterKitBatch

/// `--list-outputs`: the files a run would write, one path a line, or with `--json` one object
/// `{"outputs": [{"path", "key", "encoding"}, …]}` (sorted keys, as every `--json` prints).
enum OutputListing {
    private struct Listing: Encodable {
        var outputs: [PlannedFile]
    }

    static func print(_ files: [PlannedFile], json: Bool) {
        if json {
            Swift.print(JSONLine.encode(Listing(outputs: files)))
        } else {
            for file in files { Swift.print(file.path) }
        }
    }
}
