import Foundation

/// Nine-slice stretching: corners keep their pixels, edges stretch along one axis, the centre
/// along both. Slices meet on whole pixels and each samples only its own source region, so
/// there are no seams and no colour bleeds from one slice into another.
package enum NineSlice {
    /// Throws unless `insets` are non-negative, finite, and leave a stretchable centre in `size`.
    static func validate(_ insets: EdgeInsets, fitting size: Size) throws {
        guard insets.isValid else {
            throw RenderError.invalidCapInsets(insets, reason: "every inset must be finite and not negative")
        }
        guard insets.horizontal < size.width, insets.vertical < size.height else {
            throw RenderError.invalidCapInsets(
                insets, reason: "the caps leave no centre to stretch in an image of \(size) points")
        }
    }

    /// Throws unless a render of `size` can hold caps of `insets`.
    static func validate(_ insets: EdgeInsets, forTarget size: Size) throws {
        guard insets.isValid else {
            throw RenderError.invalidCapInsets(insets, reason: "every inset must be finite and not negative")
        }
        guard insets.horizontal <= size.width, insets.vertical <= size.height else {
            throw RenderError.invalidCapInsets(
                insets, reason: "the caps need at least \(insets.horizontal)×\(insets.vertical) points, but the size is \(size)")
        }
    }

    /// Cap widths in whole pixels, always leaving at least one centre pixel each way.
    package static func pixelCaps(_ insets: EdgeInsets, scale: Double, width: Int, height: Int)
        -> (left: Int, right: Int, top: Int, bottom: Int) {
        func fit(_ first: Double, _ second: Double, within length: Int) -> (Int, Int) {
            var a = max(0, Int((first * scale).rounded())), b = max(0, Int((second * scale).rounded()))
            if a + b >= length {
                a = min(a, length - 1)
                b = max(0, length - 1 - a)
            }
            return (a, b)
        }
        let (left, right) = fit(insets.left, insets.right, within: width)
        let (top, bottom) = fit(insets.top, insets.bottom, within: height)
        return (left, right, top, bottom)
    }

    /// Stretches `image` (which has cap insets) to exactly `width` × `height` pixels.
    static func stretch(_ image: RasterImage, insets: EdgeInsets, toPixelWidth width: Int, height: Int) throws -> RasterImage {
        let caps = pixelCaps(insets, scale: image.scale, width: image.pixelWidth, height: image.pixelHeight)
        guard width >= caps.left + caps.right, height >= caps.top + caps.bottom else {
            throw RenderError.invalidCapInsets(
                insets, reason: "the caps need at least \(caps.left + caps.right)×\(caps.top + caps.bottom) pixels, "
                    + "but the target is \(width)×\(height)")
        }
        let columns = Axis(source: image.pixelWidth, target: width, leading: caps.left, trailing: caps.right)
        let rows = Axis(source: image.pixelHeight, target: height, leading: caps.top, trailing: caps.bottom)
        let output = PixelStorage(byteCount: width * height * 4)
        let source = image.storage.bytes.assumingMemoryBound(to: UInt32.self)
        let target = output.bytes.assumingMemoryBound(to: UInt32.self)

        // First every source row stretched horizontally, then each target row taken from one of
        // them or blended from two.
        let wide = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, image.pixelHeight * width))
        defer { wide.deallocate() }
        for y in 0..<image.pixelHeight {
            stretchRow(source + y * image.pixelWidth, into: wide + y * width, columns)
        }
        var identicalToNext = [Bool](repeating: false, count: image.pixelHeight)
        for y in 0..<max(0, image.pixelHeight - 1) {
            identicalToNext[y] = memcmp(wide + y * width, wide + (y + 1) * width, width * 4) == 0
        }
        for y in 0..<height {
            let sample = rows.samples[y]
            let destination = target + y * width
            if sample.weight == 0 || sample.first == sample.second
                || (sample.second == sample.first + 1 && identicalToNext[sample.first]) {
                destination.update(from: wide + sample.first * width, count: width)
            } else {
                blend(wide + sample.first * width, wide + sample.second * width, weight: sample.weight,
                      into: destination, count: width)
            }
        }
        return RasterImage(storage: output, pixelWidth: width, pixelHeight: height, scale: image.scale,
                           capInsets: insets)
    }

    private static func stretchRow(_ row: UnsafePointer<UInt32>, into output: UnsafeMutablePointer<UInt32>, _ axis: Axis) {
        let centre = row + axis.leading
        let centreCount = axis.source - axis.leading - axis.trailing
        output.update(from: row, count: axis.leading)
        output.advanced(by: axis.target - axis.trailing).update(from: row + axis.source - axis.trailing,
                                                                  count: axis.trailing)
        let targetCentre = output + axis.leading
        let targetCount = axis.target - axis.leading - axis.trailing
        guard targetCount > 0 else { return }
        if (1..<centreCount).allSatisfy({ centre[$0] == centre[0] }) {
            targetCentre.update(repeating: centre[0], count: targetCount)
            return
        }
        for index in 0..<targetCount {
            let sample = axis.samples[axis.leading + index]
            let a = row[sample.first], b = row[sample.second]
            targetCentre[index] = sample.weight == 0 ? a : mix(a, b, sample.weight)
        }
    }

    private static func blend(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight: UInt32,
                              into output: UnsafeMutablePointer<UInt32>, count: Int) {
        for index in 0..<count { output[index] = mix(a[index], b[index], weight) }
    }

    /// Linear mix of two premultiplied pixels; `weight` of `b` out of 256.
    @inline(__always)
    private static func mix(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        let inverse = 256 - weight
        let redBlue = ((a & 0x00FF_00FF) &* inverse &+ (b & 0x00FF_00FF) &* weight &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let alphaGreen = (((a >> 8) & 0x00FF_00FF) &* inverse &+ ((b >> 8) & 0x00FF_00FF) &* weight &+ 0x0080_0080)
            & 0xFF00_FF00
        return redBlue | alphaGreen
    }

    /// Where each target pixel along one axis samples the source: caps one to one, the centre
    /// linearly between the two nearest centre pixels (never a cap pixel).
    struct Axis {
        struct Sample { var first: Int, second: Int, weight: UInt32 }
        let source: Int, target: Int, leading: Int, trailing: Int
        let samples: [Sample]

        init(source: Int, target: Int, leading: Int, trailing: Int) {
            self.source = source
            self.target = target
            self.leading = leading
            self.trailing = trailing
            let centre = source - leading - trailing
            let targetCentre = target - leading - trailing
            var samples: [Sample] = []
            samples.reserveCapacity(target)
            for index in 0..<leading { samples.append(Sample(first: index, second: index, weight: 0)) }
            for index in 0..<max(0, targetCentre) {
                let position = (Double(index) + 0.5) * Double(centre) / Double(targetCentre) - 0.5
                let clamped = min(max(position, 0), Double(centre - 1))
                let first = Int(clamped.rounded(.down))
                let second = min(first + 1, centre - 1)
                let weight = UInt32(((clamped - Double(first)) * 256).rounded())
                samples.append(Sample(first: leading + first, second: leading + second, weight: min(weight, 256)))
            }
            for index in 0..<trailing {
                samples.append(Sample(first: source - trailing + index, second: source - trailing + index, weight: 0))
            }
            self.samples = samples
        }
    }
}

extension RasterImage {
    /// Stretches a nine-slice image to `size` points: corners unchanged, edges stretched along
    /// their length, the centre both ways. Throws when the image has no cap insets or the
    /// size cannot hold the caps.
    ///
    /// ```swift
    /// let panel = try rasterizer.image(for: Panel(), size: Size(width: 300, height: 200), scale: 2)
    /// let full = try panel.stretched(to: Size(width: 300, height: 200))
    /// ```
    public func stretched(to size: Size) throws -> RasterImage {
        guard let capInsets else {
            throw RenderError.invalidCapInsets(.zero, reason: "the image has no cap insets to stretch by")
        }
        try NineSlice.validate(capInsets, forTarget: size)
        let pixels = try PixelGeometry.pixelSize(for: size, scale: scale, limits: .default)
        if pixels.width == pixelWidth, pixels.height == pixelHeight { return self }
        return try NineSlice.stretch(self, insets: capInsets, toPixelWidth: pixels.width, height: pixels.height)
    }
}
