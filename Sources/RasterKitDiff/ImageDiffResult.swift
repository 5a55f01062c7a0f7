extension ImageDiff {
    /// What a comparison found: how many pixels differ, and a picture of where.
    public struct Result: Equatable, Sendable {
        /// The size of both images.
        public let size: PixelSize
        /// Pixels whose colours differ by more than the threshold and are not excused as
        /// anti-aliasing: pixelmatch's return value.
        public let differentPixels: Int
        /// Pixels over the threshold that were excused as anti-aliasing (0 when `includeAA`).
        public let antiAliasedPixels: Int
        /// True when the two buffers are byte-for-byte equal (the fast path, no per-pixel work).
        public let isIdentical: Bool
        /// The smallest rectangle holding every different pixel; nil when none differs.
        public let differenceBounds: PixelRect?
        /// The different pixel whose colour changed most (the first in reading order among
        /// equals); nil when none differs.
        public let largestDifference: LargestDifference?
        let diffImageSource: DiffImageSource

        init(size: PixelSize, differentPixels: Int, antiAliasedPixels: Int, isIdentical: Bool,
             differenceBounds: PixelRect? = nil, largestDifference: LargestDifference? = nil,
             diffImageSource: DiffImageSource) {
            self.size = size
            self.differentPixels = differentPixels
            self.antiAliasedPixels = antiAliasedPixels
            self.isIdentical = isIdentical
            self.differenceBounds = differenceBounds
            self.largestDifference = largestDifference
            self.diffImageSource = diffImageSource
        }

        /// Where the differences are, for a failure message: their bounds and the largest
        /// change (`different pixels in x 3–9, y 4–4 (7×1 px); largest change at (5, 4): …`);
        /// nil when none differs.
        public var locationSummary: String? {
            guard let differenceBounds, let largestDifference else { return nil }
            return "different pixels in \(differenceBounds); largest change at \(largestDifference)"
        }

        /// Width × height: every pixel compared.
        public var totalPixels: Int { size.width * size.height }

        /// `differentPixels / totalPixels`, from 0 to 1.
        public var ratio: Double { totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels) }

        /// pixelmatch's diff image, or nil when `makeDiffImage` was false.
        ///
        /// For identical images it is drawn on each read rather than during the comparison, so
        /// the common "nothing changed" case costs one `memcmp`; keep the value if you need it twice.
        public var diffImage: RGBABitmap? { diffImageSource.image() }
    }

    /// Where a result's diff image comes from.
    enum DiffImageSource: Equatable, Sendable {
        /// No diff image was asked for.
        case none
        /// Drawn during the per-pixel comparison.
        case drawn(RGBABitmap)
        /// Identical images: the expected image faded to grey, drawn when read.
        case faded(RGBABitmap, alpha: Double)
        /// Identical images with `diffMask`: nothing to draw on a transparent background.
        case transparent(PixelSize)

        func image() -> RGBABitmap? {
            switch self {
            case .none: nil
            case .drawn(let image): image
            case let .faded(source, alpha): Pixelmatch.fadedCopy(of: source, alpha: alpha)
            case .transparent(let size): RGBABitmap(width: size.width, height: size.height)
            }
        }
    }
}
