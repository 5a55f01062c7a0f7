import RasterKit
import Foundation

/// A manifest of pre-rendered assets, loaded and fully checked: declarative components in named
/// states, sizes and scales, and folders of SVGs. YAML or JSON; the format is in the README.
///
/// ```swift
/// let manifest = try Manifest(contentsOf: URL(fileURLWithPath: "Examples/showcase.yaml"))
/// let plan = try manifest.plan()                       // every output, in each component's formats
/// let summary = BatchRenderer(rasterizer: Rasterizer()).run(plan, into: URL(fileURLWithPath: "out"))
/// ```
///
/// Loading throws ``ManifestError`` with every problem found — unknown keys, wrong types, bad
/// colours, missing files, unknown or cyclic `use` references — each at its line and column.
public struct Manifest: Sendable {
    /// One named variant of a component, with its layers resolved.
    public struct State: Hashable, Sendable {
        /// The state's name, the second part of its file names.
        public var name: String
        /// The resolved layers, bottom first.
        public var layers: [Layer]
        /// The `post:` steps run on every render of the state, in order.
        public var post: [PostStep] = []
        /// The component state drawn instead when this one's render fails (`fallback:`).
        var fallback: ManifestFallback?
        /// The sizes this state is exported at, when its component's sizes are measured from
        /// its layers (`width: auto`): each with the measured lengths. nil: the component's.
        public var measuredSizes: [ComponentSize]?

        /// The name of the component `fallback:` names, if any.
        public var fallbackComponent: String? { fallback?.component }
    }

    /// A width or height measured from a component's layers, within bounds (`width: auto`).
    public struct MeasuredLength: Hashable, Sendable {
        /// The shortest it is made, in points.
        public var minimum: Double
        /// The longest it is made, in points; longer content wraps or is cut.
        public var maximum: Double

        /// Bounds of `minimum`…`maximum` points.
        public init(minimum: Double, maximum: Double) {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// A size a component is exported at; with caps it is resizable, drawn at its minimum frame.
    public struct ComponentSize: Hashable, Sendable {
        /// The size in points; an axis measured from the layers holds its minimum until measured
        /// (each state's ``State/measuredSizes`` hold the measured sizes).
        public var size: Size
        /// When set, the width is measured from each state's layers within these bounds.
        public var measuredWidth: MeasuredLength?
        /// When set, the height is measured from each state's layers within these bounds.
        public var measuredHeight: MeasuredLength?
        /// Nine-slice caps in points; nil when not resizable.
        public var capInsets: EdgeInsets?
        /// The content area, for nine-patch markers; nil: inside the caps.
        public var contentInsets: EdgeInsets?
        /// Where the image's visual edges are, inside it (a shadow or glow around them): red
        /// layout-bound ticks in a `.9.png`, `alignment-insets` in an asset catalog. nil: none.
        public var opticalInsets: EdgeInsets?

        /// `size`, resizable with `capInsets`.
        public init(size: Size, capInsets: EdgeInsets? = nil, contentInsets: EdgeInsets? = nil) {
            self.size = size
            self.capInsets = capInsets
            self.contentInsets = contentInsets
        }

        /// Whether a length is measured from the layers.
        public var isMeasured: Bool { measuredWidth != nil || measuredHeight != nil }

        init(_ spec: SizeSpec) {
            size = spec.size
            measuredWidth = spec.measuredWidth
            measuredHeight = spec.measuredHeight
            capInsets = spec.caps
            contentInsets = spec.content
            opticalInsets = spec.optical
        }
    }

    /// A component: its states, the sizes and scales it is exported at, and in which formats.
    public struct Component: Sendable {
        /// The component's name, the first part of its file names.
        public var name: String
        /// Every state, in the order the manifest names them.
        public var states: [State]
        /// Empty for a component only drawn inside others, through `use`.
        public var sizes: [ComponentSize]
        /// Pixels per point.
        public var scales: [Double]
        /// The formats written unless `--format` replaces them.
        public var outputs: [ExportFormat]
        /// `template: true`: a template image, which an app tints — its PNGs keep only the alpha
        /// (black with alpha) and an asset catalog marks it `template-rendering-intent: template`.
        public var isTemplate = false
        /// `preserveVectors: true`: in an asset catalog, each image set holds one PDF (per
        /// appearance) marked `preserves-vector-representation`, instead of a PNG per scale.
        public var preservesVectors = false
        /// `golden:`: how `rasterkit goldens check` judges its goldens; nil: as `assertGolden`
        /// does by default.
        public var golden: GoldenSettings?
        /// `parameters:`: the values its renders take from a URL's query, a data record or
        /// `--set`; its states as listed are drawn with the defaults.
        public var parameters: [Parameter] = []
        /// `names:`: how a data batch names each record's outputs, its fields in braces (`{slug}`).
        public var names: String?
        /// The appearances it is exported in: `light` first, then those its `dark:` and
        /// `highContrast:` overrides (or `appearances:`) give it.
        public var appearances: [Appearance] = [.light]
        /// Its states in each appearance but `light`, resolved with that appearance's overrides.
        var appearanceStates: [Appearance: [State]] = [:]
        /// Where the component and its scales were given, so planning can point at them.
        var location: ManifestLocation?
        var scalesLocation: ManifestLocation?

        /// The state as a component to render at `size`, resizable when that size has caps.
        public func component(_ state: State, at size: ComponentSize) -> DeclarativeComponent {
            DeclarativeComponent(layers: state.layers, capInsets: size.capInsets, name: "\(name)/\(state.name)")
        }

        /// What a batch renders for `state` at `size`: the state's layers, falling back on the
        /// component `fallback:` names when their render fails, then run through `post:`.
        public func renderable(_ state: State, at size: ComponentSize) -> any Rasterizable {
            ManifestFallback.renderable(name: name, state: state, capInsets: size.capInsets)
        }

        /// Its states as they look in `appearance` (with that appearance's overrides); the light
        /// states for an appearance it is not exported in.
        public func states(in appearance: Appearance) -> [State] { appearanceStates[appearance] ?? states }

        /// One batch item per state, at every size and scale, in every appearance.
        public var items: [BatchItem] {
            guard !sizes.isEmpty else { return [] }
            let bySize = Dictionary(sizes.map { ($0.size, $0) }, uniquingKeysWith: { first, _ in first })
            let byAppearance = Dictionary(uniqueKeysWithValues: appearances.map { ($0, states(in: $0)) })
            return states.indices.map { index in
                let state = states[index]
                let stateSizes = state.measuredSizes ?? sizes
                let bySize = state.measuredSizes.map { measured in
                    Dictionary(measured.map { ($0.size, $0) }, uniquingKeysWith: { first, _ in first })
                } ?? bySize
                var item = BatchItem(name: name, state: state.name, sizes: stateSizes.map(\.size).uniqued(), scales: scales,
                                     appearances: appearances, source: "\(name)/\(state.name)") { size, appearance in
                    let spec = bySize[size] ?? stateSizes[0]
                    let drawn = byAppearance[appearance]?[index] ?? state
                    return BatchItem.Variant(component: renderable(drawn, at: spec), contentInsets: spec.contentInsets,
                                             opticalInsets: spec.opticalInsets)
                }
                item.isTemplate = isTemplate
                item.preservesVectors = preservesVectors
                return item
            }
        }
    }

    /// SVG files and folders rendered like `rasterkit svg`, into a folder of the output.
    public struct SVGEntry: Sendable {
        /// The files, sizes, scales, mode and tint, as `rasterkit svg` takes them.
        public var batch: SVGBatch
        /// The folder under the output directory, "" for the output directory itself.
        public var folder: String
        var location: ManifestLocation?
    }

    /// The asset catalog's name: the manifest's `name`, else its file name without extension.
    public var name: String
    /// The manifest as it was named, for messages.
    public var file: String
    /// Paths in the manifest are relative to this folder.
    public var directory: URL
    /// Every component, in the order of the manifest.
    public var components: [Component]
    /// Every `svgs:` entry.
    public var svgs: [SVGEntry]
    /// What the manifest's renders may cost: the limits it was loaded under, lowered by its own
    /// `limits:`.
    public var limits: ResourceLimits
    /// The manifest file and every file it made load, stamped before they were read; nil when
    /// the manifest did not come from a file or some file changed too recently to be stamped.
    var inputStamps: [String: String]?
    /// The document as written, kept when a component declares parameters, to resolve its states
    /// with the values a request gives.
    var templates: ManifestTemplates?
    /// The manifest file and every file it made load, absolute, in the order they were read;
    /// empty when the manifest did not come from a file.
    var inputPaths: [String] = []
    /// How long an input must have been left alone before its stamp is trusted (see ``FileStamp``).
    var inputSettleTime = FileStamp.defaultSettleTime

    /// Loads and checks the manifest at `url`; paths in it are relative to its folder. Its values
    /// and the files it names are checked against `limits` (which its own `limits:` may lower).
    /// `fontDirectories` add folders of fonts to its own `fonts:` (as `--font-dir` does); every
    /// font it adds is registered with `FontLibrary` for the rest of the process.
    public init(contentsOf url: URL, limits: ResourceLimits = .default, fontDirectories: [URL] = []) throws(ManifestError) {
        try self.init(contentsOf: url, settleTime: FileStamp.defaultSettleTime, limits: limits, fontDirectories: fontDirectories)
    }

    /// Loads the manifest at `url`, trusting the stamps of inputs left alone for `settleTime`
    /// seconds (tests shorten it).
    init(contentsOf url: URL, settleTime: Double, limits: ResourceLimits = .default,
         fontDirectories: [URL] = []) throws(ManifestError) {
        let inputs = InputStamps(settleTime: settleTime)
        inputs.note(url.path)
        let file = url.relativePath
        let data: Data
        do {
            data = try FileReader.read(url.path, naming: file, limit: limits.maximumInputBytes)
        } catch {
            throw ManifestError(problems: [.init(file: file, line: 1, column: 1,
                                                 message: "cannot read the manifest: \(error.reason)")])
        }
        try self.init(data: data, file: file, directory: url.deletingLastPathComponent(), inputs: inputs, limits: limits,
                      fontDirectories: fontDirectories)
        inputStamps = inputs.completeStamps
        inputPaths = inputs.paths
        inputSettleTime = settleTime
    }

    /// Loads and checks a manifest from its bytes; `file` names it in problems, and paths in it
    /// are relative to `directory`.
    public init(data: Data, file: String = "manifest.yaml", directory: URL,
                limits: ResourceLimits = .default) throws(ManifestError) {
        try self.init(data: data, file: file, directory: directory, inputs: nil, limits: limits, fontDirectories: [])
    }

    private init(data: Data, file: String, directory: URL, inputs: InputStamps?, limits: ResourceLimits,
                 fontDirectories: [URL]) throws(ManifestError) {
        let problems = ManifestProblems(file: file)
        guard let text = String(data: data, encoding: .utf8) else {
            problems.add("the manifest is not UTF-8 text", at: nil)
            throw ManifestError(problems: problems.problems)
        }
        guard data.count <= limits.maximumInputBytes else {
            problems.add("the manifest is larger than \(limits.maximumInputBytes) bytes", at: nil)
            throw ManifestError(problems: problems.problems)
        }
        var reader = ManifestReader(problems: problems,
                                    files: ManifestFiles(directory: directory, inputs: inputs, limit: limits.maximumInputBytes),
                                    limits: limits)
        reader.fontDirectories = fontDirectories
        guard let document = ManifestParser(reader: reader).parse(ManifestParser.readingJSON(text, file: file)) else {
            throw ManifestError(problems: problems.problems)
        }
        components = ManifestResolver(document: document, reader: reader).components()
        if document.components.contains(where: { !$0.parameters.isEmpty }) {
            templates = ManifestTemplates(document: document, file: file, directory: directory)
        }
        svgs = document.svgs
        self.limits = document.limits
        try problems.check()
        self.file = file
        self.directory = directory
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        name = document.name ?? (ManifestNames.isSafe(stem) ? stem : "Assets")
    }

    /// The component named `name`.
    public func component(named name: String) -> Component? { components.first { $0.name == name } }

    /// Every state of every exported component, as batch items.
    public var items: [BatchItem] { components.flatMap(\.items) }
}

extension ManifestParser {
    /// A JSON manifest as the YAML parser reads it: JSON is YAML 1.2, but libyaml reads YAML 1.1,
    /// which differs in two ways JSON files meet. Tabs, which JSON often indents with and YAML
    /// does not allow as indentation, become spaces (one each, so every column stays where it
    /// was). A character outside the Basic Multilingual Plane written as a UTF-16 surrogate pair
    /// (`"\ud83d\ude00"`, as `JSON.stringify` and most serialisers write emoji) becomes the one
    /// 32-bit escape YAML has for it (`"\U0001F600"`); a lone surrogate is left for the parser to
    /// refuse, as JSON itself does. Any other text is returned as it is.
    static func readingJSON(_ text: String, file: String) -> String {
        let isJSON = file.lowercased().hasSuffix(".json")
            || text.drop(while: { $0.isWhitespace }).first.map { $0 == "{" || $0 == "[" } == true
        guard isJSON, text.contains("\t") || text.contains("\\u") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0, inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            if !inString {
                if scalar == "\"" { inString = true }
                result.append(scalar == "\t" ? " " : scalar)
                index += 1
                continue
            }
            if scalar == "\"" {
                inString = false
            } else if scalar == "\\", index + 1 < scalars.count {
                if let high = hexCodeUnit(scalars, at: index), (0xD800...0xDBFF).contains(high),
                   let low = hexCodeUnit(scalars, at: index + 6), (0xDC00...0xDFFF).contains(low) {
                    let combined = 0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)
                    let hex = String(combined, radix: 16, uppercase: true)
                    result.append(contentsOf: ("\\U" + String(repeating: "0", count: 8 - hex.count) + hex).unicodeScalars)
                    index += 12
                    continue
                }
                // Any other escape is copied whole, so an escaped quote does not end the string.
                result.append(scalar)
                result.append(scalars[index + 1])
                index += 2
                continue
            }
            result.append(scalar == "\t" ? " " : scalar)
            index += 1
        }
        return String(result)
    }

    /// The code unit of a `\uXXXX` escape starting at `index`, or nil.
    private static func hexCodeUnit(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
        guard index + 6 <= scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else { return nil }
        var value = 0
        for scalar in scalars[(index + 2)..<(index + 6)] {
            guard let digit = Int(String(scalar), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
