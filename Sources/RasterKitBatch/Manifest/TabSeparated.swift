import RasterKit
import Foundation

/// The tab-separated files a batch keeps in its output folder: the output index and the run
/// record. Each holds one line per output, read on every warm run.
enum TabSeparated {
    /// Each line of `data` (the last one empty when the text ends in a line break) as its
    /// fields, at most `limit` of them: the last takes the rest of the line. Split as bytes:
    /// splitting by Character (grapheme clusters) cost more than all the rest of checking a
    /// warm run's outputs.
    static func lines(of data: Data, fieldsPerLine limit: Int = .max) -> [[String]] {
        data.withUnsafeBytes { buffer in
            buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
                line.split(separator: UInt8(ascii: "\t"), maxSplits: limit - 1, omittingEmptySubsequences: false)
                    .map { String(decoding: UnsafeRawBufferPointer(rebasing: $0), as: UTF8.self) }
            }
        }
    }

    /// Whether `text` can be one field: it holds no tab and no line break.
    static func canHold(_ text: String) -> Bool {
        // By scalar, not by Character: each of these is a grapheme of its own (they are
        // controls and separators), so the answer is `Character.isNewline`'s and the tab's,
        // without a grapheme walk for every field of every index line.
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029: return false
            default: continue
            }
        }
        return true
    }
}
