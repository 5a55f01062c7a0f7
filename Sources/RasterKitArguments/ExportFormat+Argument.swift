import ArgumentParser
import RasterKitBatch

/// `--format` values: ``ExportFormat``'s raw values, for `rasterkit render` and `rasterkit-assets`.
extension ExportFormat: ExpressibleByArgument {}
