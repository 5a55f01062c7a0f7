extension Processed: ComposedRendering {
    /// Requests the base through the cache, stretches a nine-slice base when the chain needs
    /// full-size pixels, and runs each stage under the render's limits.
    func composeImage(drawSize: Size, scale: Double, environment: DrawEnvironment) throws -> RasterImage {
        for processor in processors { try ProcessorIdentifier.validate(processor.identifier) }
        var image = try environment.renderComponent(base, size: drawSize, scale: scale)
        if capInsets == nil, image.capInsets != nil {
            // A nine-slice base comes back at its minimum frame: stages that cannot keep it
            // stretchable see the final pixels.
            if abs(image.size.width - drawSize.width) > 1e-9 || abs(image.size.height - drawSize.height) > 1e-9 {
                image = try image.stretched(to: drawSize)
            }
            image = try image.withCapInsets(nil)
        }
        let context = ProcessingContext(limits: environment.limits, memory: environment.memory)
        return try ProcessingContext.$current.withValue(context) {
            for processor in processors {
                try environment.checkContinuing()
                image = try processor.process(image)
            }
            return image
        }
    }
}

/// The identifiers a processor may have: 1 to 200 bytes without spaces or control characters, since
/// they name cache entries and appear in key descriptions and manifests.
enum ProcessorIdentifier {
    static func validate(_ identifier: String) throws {
        guard !identifier.isEmpty, identifier.utf8.count <= 200,
              identifier.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.properties.generalCategory != .control })
        else { throw ProcessorError.invalidIdentifier(identifier) }
    }
}
