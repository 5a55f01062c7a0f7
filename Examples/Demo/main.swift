// The demo `make demo` runs: renders the example components at 1x and 2x, and a labelled
// contact sheet of all of them, then says where they are.
import Foundation
import RasterKit
import RasterKitBatch
import RasterKitExamples

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "out/demo", isDirectory: true)
let componentsDirectory = output.appendingPathComponent("components", isDirectory: true)
let rasterizer = Rasterizer()

do {
    try FileManager.default.createDirectory(at: componentsDirectory, withIntermediateDirectories: true)
    var sheetItems: [ContactSheet.Item] = []
    var written = 0
    for sample in ExampleGallery.samples {
        for scale in [1.0, 2.0] {
            let image = try sample.render(rasterizer, scale)
            let name = scale == 1 ? "\(sample.name).png" : "\(sample.name)@\(Int(scale))x.png"
            try image.pngData().write(to: componentsDirectory.appendingPathComponent(name), options: .atomic)
            written += 1
            if scale == 2 { sheetItems.append(ContactSheet.Item(label: sample.name, image: image)) }
        }
    }
    let sheet = try ContactSheet(title: "RasterKit example components", items: sheetItems).render(scale: 2)
    let sheetURL = output.appendingPathComponent("contact-sheet.png")
    try sheet.pngData().write(to: sheetURL, options: .atomic)
    let statistics = rasterizer.statistics
    print("Rendered \(written) PNGs (\(statistics.draws) draws, \(statistics.memoryHits) served from cache) to \(componentsDirectory.path)")
    print("Contact sheet: \(sheetURL.path)")
} catch {
    FileHandle.standardError.write(Data("demo failed: \(error)\n".utf8))
    exit(1)
}
