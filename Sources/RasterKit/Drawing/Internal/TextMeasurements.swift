/// Text measured on measuring canvases anywhere in the process (``Canvas/measuring(limits:_:)``),
/// kept so that measuring the same text again costs a lookup rather than a Pango layout. A server
/// measures a self-sizing component's state on every request to learn the size its image is
/// keyed by, and a manifest measures its `auto` sizes per state; the layout is the whole cost of
/// each. A canvas that draws keeps nothing here (see ``Canvas/keepsMeasurements``).
///
/// A measurement depends only on what the key holds: the text and its style, the box, the
/// transform it is laid out under, the fonts registered (their generation) and the scale and
/// limits it was checked against. Rendering options are fixed for the process (``ThreadFontMap``).
/// Only measurements that succeeded are kept.
enum TextMeasurements {
    /// Hashed once, when made: a measurement misses, is laid out and is kept, three lookups of
    /// one key, and a draw measures each of its texts.
    struct Key: Hashable, Sendable {
        let run: TextRun
        let width: Double?
        let height: Double?
        let xx: Double, yx: Double, xy: Double, yy: Double
        /// ``FontLibrary/generation``: which fonts the text resolves to.
        let fonts: Int
        /// The canvas's scale and the longest side its limits allow, which ``TextLimits`` holds
        /// font sizes and spacing to.
        let scale: Double
        let maximumSide: Int
        private let hash: Int

        init(run: TextRun, width: Double?, height: Double?, xx: Double, yx: Double, xy: Double, yy: Double,
             fonts: Int, scale: Double, maximumSide: Int) {
            (self.run, self.width, self.height) = (run, width, height)
            (self.xx, self.yx, self.xy, self.yy) = (xx, yx, xy, yy)
            (self.fonts, self.scale, self.maximumSide) = (fonts, scale, maximumSide)
            var hasher = Hasher()
            hasher.combine(run)
            hasher.combine(width)
            hasher.combine(height)
            hasher.combine(xx)
            hasher.combine(yx)
            hasher.combine(xy)
            hasher.combine(yy)
            hasher.combine(scale)
            hasher.combine(fonts)
            hasher.combine(maximumSide)
            hash = hasher.finalize()
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.run == rhs.run && lhs.width == rhs.width && lhs.height == rhs.height
                && lhs.xx == rhs.xx && lhs.yx == rhs.yx && lhs.xy == rhs.xy && lhs.yy == rhs.yy
                && lhs.fonts == rhs.fonts && lhs.scale == rhs.scale && lhs.maximumSide == rhs.maximumSide
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Two generations: lookups promote from the older one, and when the recent one is full it
    /// becomes the older, so what is used survives and the total stays bounded.
    private struct Generations {
        var recent: [Key: TextMetrics] = [:]
        var older: [Key: TextMetrics] = [:]

        mutating func insert(_ metrics: TextMetrics, for key: Key) {
            if recent.count >= TextMeasurements.generationCapacity {
                older = recent
                // Sized for a whole generation, so filling it does not rehash it at each doubling.
                recent = Dictionary(minimumCapacity: TextMeasurements.generationCapacity)
            }
            recent[key] = metrics
        }
    }

    private static let kept = Lock(Generations())
    static let generationCapacity = 2_048
    /// Texts longer than this (in UTF-8 bytes, with their fonts) are measured every time, so
    /// the measurements kept take a few megabytes at most.
    static let maximumKeptBytes = 2_048

    static func metrics(for key: Key) -> TextMetrics? {
        kept.withLock { kept in
            if let known = kept.recent[key] { return known }
            guard let known = kept.older.removeValue(forKey: key) else { return nil }
            kept.insert(known, for: key)
            return known
        }
    }

    static func keep(_ metrics: TextMetrics, for key: Key) {
        guard key.run.byteCount <= maximumKeptBytes else { return }
        kept.withLock { $0.insert(metrics, for: key) }
    }

    /// How many measurements are kept.
    static var count: Int { kept.withLock { $0.recent.count + $0.older.count } }

    /// Whether a measurement is kept for a key that passes `test`.
    static func contains(where test: (Key) -> Bool) -> Bool {
        kept.withLock { $0.recent.keys.contains(where: test) || $0.older.keys.contains(where: test) }
    }

    /// Forgets every measurement (for tests that compare against a fresh one).
    static func removeAll() {
        kept.withLock { $0 = Generations() }
    }
}
