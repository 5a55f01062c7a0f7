import RasterKit
import Foundation

/// Plans the PNGs made from a set of SVG files and folders: every SVG at every size and
/// scale, named `<name>-<size>.png` at scale 1 and `<name>-<size>@<S>x.png` otherwise, with
/// each input folder's subfolders mirrored in the output.
///
/// ```swift
/// let batch = SVGBatch(inputs: [URL(fileURLWithPath: "Examples/icons")], sizes: [24, 48], scales: [1, 2])
/// let summary = BatchRenderer(rasterizer: Rasterizer()).run(try batch.outputs(), into: outputDirectory)
/// // home-24.png, home-24@2x.png, home-48.png, home-48@2x.png, …
/// ```
public struct SVGBatch: Sendable, Hashable {
    /// SVG files, and folders searched for `.svg`/`.svgz` files at any depth (hidden ones skipped).
    public var inputs: [URL]
    /// Sizes in points (square).
    public var sizes: [Double]
    /// Pixels per point.
    public var scales: [Double]
    /// How each document is placed in the square; `.stretch` matches `rsvg-convert -w N -h N`.
    public var contentMode: ContentMode
    /// Paints every painted pixel in this colour, keeping its alpha.
    public var tint: Color?
    /// Lets each document load files from its own folder (off: nothing outside the document loads).
    public var allowsExternalReferences: Bool
    /// Post-processing run on every render, in order (`--post`, a manifest's `post:`).
    public var post: [PostStep] = []
    /// The digest of the fonts the command adds (`--font-dir`), for the keys of documents with text.
    public var fonts: StableDigest?

    /// Every SVG in `inputs` at every size × scale; by default stretched like `rsvg-convert -w N -h N`.
    public init(inputs: [URL], sizes: [Double], scales: [Double] = [1], contentMode: ContentMode = .stretch,
                tint: Color? = nil, allowsExternalReferences: Bool = false) {
        self.inputs = inputs
        self.sizes = sizes
        self.scales = scales
        self.contentMode = contentMode
        self.tint = tint
        self.allowsExternalReferences = allowsExternalReferences
    }

    /// One SVG file found in the inputs.
    public struct Source: Hashable, Sendable {
        /// The file's path.
        public var path: String
        /// The file's path as the user would write it: the input as given, then the path inside it.
        public var displayPath: String
        /// The folder its outputs go to, relative to the output directory ("" for none).
        public var folder: String
        /// The file name without `.svg`/`.svgz`.
        public var name: String
        /// The file.
        public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }

        /// The output file `name` of this source, in its folder.
        func outputPath(_ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }
    }

    /// The SVG files the inputs name, in a stable order.
    public func sources() throws(BatchPlanError) -> [Source] { try sources(noting: nil) }

    /// The sources, with each input file and every folder searched stamped in `stamps` as it
    /// is found (before any output reads it).
    func sources(noting stamps: InputStamps?) throws(BatchPlanError) -> [Source] {
        var found: [Source] = []
        // The first source of each output name (folder and name): only sources that share one
        // can be the same file given twice, so only those are looked at to find out.
        var firstWithOutputName: [String: Int] = [:]
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
                throw .inputNotFound(path: input.relativePath)
            }
            let batch = isDirectory.boolValue
                ? try SVGBatch.files(inFolder: input, noting: stamps) : [SVGBatch.file(input, noting: stamps)]
            if isDirectory.boolValue, batch.isEmpty { throw .noSVGFiles(folder: input.relativePath) }
            firstWithOutputName.reserveCapacity(found.count + batch.count)
            for source in batch {
                let outputName = source.outputPath(source.name)
                if let first = firstWithOutputName[outputName] {
                    if SVGBatch.isGivenAgain(source, among: found[first...]) { continue }
                } else {
                    firstWithOutputName[outputName] = found.count
                }
                found.append(source)
            }
        }
        return found
    }

    /// Whether `source` is a file already in `earlier` under the same output name: say, a folder
    /// and a file in it, or hard links whose names differ only in the extension's case. Such a
    /// file is rendered once; a link under another name (an icon theme's alias) is a source of
    /// its own. Files are compared by device and inode, or by path when one cannot be looked at.
    private static func isGivenAgain(_ source: Source, among earlier: ArraySlice<Source>) -> Bool {
        let file = fileIdentity(source.path)
        return earlier.contains { other in
            other.folder == source.folder && other.name == source.name
                && (file != nil && file == fileIdentity(other.path) || other.path == source.path)
        }
    }

    /// The device and inode of what `path` reaches (links followed); nil when it is missing.
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Every output, grouped by source so one worker reads and parses each file once.
    public func outputs() throws(BatchPlanError) -> [BatchOutput] {
        try outputs(for: try sources())
    }

    /// The outputs of `sources`, as ``sources()`` found them.
    func outputs(for sources: [Source]) throws(BatchPlanError) -> [BatchOutput] {
        // `--size 48 --size 48` asks for one file, not a conflict.
        let sizes = sizes.uniqued(), scales = scales.uniqued()
        var claims = OutputPathClaims(capacity: sources.count * sizes.count * scales.count)
        // Every path is claimed below, or the batch throws: the renderer need not claim them again.
        let claimed = OutputPathClaimToken(count: sources.count * sizes.count * scales.count)
        var outputs: [BatchOutput] = []
        outputs.reserveCapacity(sources.count * sizes.count * scales.count)
        // One per size and scale rather than per file: a key is made for each.
        let parameterStamps = allowsExternalReferences ? [] : sizes.map { size in
            scales.map { SVGBatch.parameterStamp(size: size, scale: $0, contentMode: contentMode, tint: tint, post: post) }
        }
        for source in sources {
            let loader = SVGSourceLoader(path: source.path, displayPath: source.displayPath,
                                         allowsExternalReferences: allowsExternalReferences)
            for (sizeIndex, size) in sizes.enumerated() {
                for (scaleIndex, scale) in scales.enumerated() {
                    let name = SVGBatch.outputName(for: source.name, size: size, scale: scale)
                    let path = source.outputPath(name)
                    try claims.claim(path, by: source.displayPath)
                    let contentMode = contentMode, tint = tint, post = post
                    let image: @Sendable () throws -> any Rasterizable = {
                        SVGBatch.withPost(SVGImage(try loader.document(), contentMode: contentMode, tint: tint, fonts: fonts), post)
                    }
                    var output = BatchOutput(path: path, source: source.displayPath, group: source.path,
                                             size: Size(size), scale: scale, component: image)
                    output.pathClaims = (claimed, outputs.count)
                    // Referenced files are not part of the stamp, so documents that may load
                    // them are always read.
                    if !allowsExternalReferences {
                        let parameters = parameterStamps[sizeIndex][scaleIndex]
                        let settle = settleTime
                        output.sourceStamp = { loader.stamp(settledFor: settle).map { $0 + "|" + parameters } }
                    }
                    outputs.append(output)
                }
            }
        }
        return outputs
    }

    /// `<name>-<size>.png`, or `<name>-<size>@<scale>x.png` when the scale is not 1; numbers
    /// without a trailing `.0` (`icon-48@2x.png`, `icon-22.5@1.5x.png`).
    public static func outputName(for name: String, size: Double, scale: Double) -> String {
        BatchItem.pngName("\(name)-\(size.compactDescription)", scale: scale)
    }

    /// The extensions of SVG files, lowercased. An array: two are compared faster than a set is
    /// made (whose first use costs a warm run a scan of every protocol conformance).
    static let extensions = ["svg", "svgz"]

    /// How long a source must have been left alone before its stamp is trusted, in seconds (see
    /// ``FileStamp``). Tests shorten it.
    var settleTime: Double = FileStamp.defaultSettleTime

    /// Everything but the document that an output's fingerprint depends on: the key of an empty
    /// document rendered the same way (size, scale, mode, tint, librsvg and key versions — the
    /// key decides, so nothing it holds can be forgotten here) and the encoder's version.
    static func parameterStamp(size: Double, scale: Double, contentMode: ContentMode, tint: Color?,
                               post: [PostStep] = []) -> String {
        let empty = SVGImage(SVGDocument(unvalidatedData: Data(), externalReferences: .blocked, source: nil),
                             contentMode: contentMode, tint: tint)
        // An SVG image and the built-in processors hold plain values only, which are always keyed.
        guard let key = try? CacheKey.make(for: withPost(empty, post), size: Size(size), scale: scale) else {
            preconditionFailure("an SVG image's key was refused")
        }
        return BatchOutput.pngFingerprint(key)
    }

    /// `image`, run through `post` when there are steps.
    static func withPost(_ image: SVGImage, _ post: [PostStep]) -> any Rasterizable {
        post.isEmpty ? image : Processed(image, processors: post.map(\.processor))
    }

    private static func file(_ url: URL, noting inputs: InputStamps?) -> Source {
        let path = url.path
        inputs?.note(path)
        return Source(path: path, displayPath: url.relativePath, folder: "", name: stem(of: lastComponent(path)))
    }

    private static func files(inFolder folder: URL, noting inputs: InputStamps?) throws(BatchPlanError) -> [Source] {
        let folderPath = folder.path
        guard let found = SVGFileWalker.files(in: folderPath, extensions: extensions, noting: inputs) else {
            throw .unreadableFolder(folder: folder.relativePath)
        }
        let display = folder.relativePath.hasSuffix("/") ? folder.relativePath : folder.relativePath + "/"
        return found.map { file in
            let relative = file.relativePath
            let name = lastComponent(relative)
            let subfolder = relative.count > name.count ? String(relative.dropLast(name.count + 1)) : ""
            return Source(path: folderPath + "/" + relative, displayPath: display + relative, folder: subfolder,
                          name: stem(of: name))
        }
    }

    private static func lastComponent(_ path: String) -> Substring {
        // Through the UTF-8 view: "/" is one byte, and no character iteration is needed to find it.
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path[...]
    }

    /// The name without its extension.
    private static func stem(of name: Substring) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return String(name) }
        return String(name[..<dot])
    }
}
