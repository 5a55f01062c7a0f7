import Foundation
import RasterKitBatch

extension OutputListing {
    /// `--list-outputs`: the files a run would write, one path a line, or with `--json` one object
    /// `{"inputs": […], "outputs": [{"path", "key", "encoding"}, …]}` (sorted keys, as every
    /// `--json` prints; `inputs` only where a manifest was read).
    func print(json: Bool) {
        Swift.print(json ? self.json : text, terminator: json ? "\n" : "")
    }
}
