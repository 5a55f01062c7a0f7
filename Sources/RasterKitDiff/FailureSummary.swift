/// What `result.json` in a golden failure's artifacts folder records; `GoldenReport` reads it
/// back. Golden assertions in RasterKitTesting write it.
package struct FailureSummary: Codable, Sendable {
    package var identifier: String
    package var golden: String
    package var message: String
    package var differentPixels: Int?
    package var totalPixels: Int?
    package var ratio: Double?
    package var expectedSize: String?
    package var actualSize: String?
    package var recordMode: String
    /// The regions left out of the comparison, as pixel rectangles; absent in older files.
    package var ignoredRegions: [String]?

    package init(identifier: String, golden: String, message: String, differentPixels: Int?, totalPixels: Int?,
                 ratio: Double?, expectedSize: String?, actualSize: String?, recordMode: String,
                 ignoredRegions: [String] = []) {
        self.ignoredRegions = ignoredRegions.isEmpty ? nil : ignoredRegions
        self.identifier = identifier
        self.golden = golden
        self.message = message
        self.differentPixels = differentPixels
        self.totalPixels = totalPixels
        self.ratio = ratio
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.recordMode = recordMode
    }
}
