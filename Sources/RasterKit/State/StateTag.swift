/// The kind byte in front of every value in the canonical stream, so that values of different
/// kinds never write the same bytes.
///
/// Every tag byte written into a key's canonical stream is declared in this file, so that a new
/// one is chosen with all the others in view: standard values and structure here (0x01–0x44),
/// RasterKit's own value types in ``StateTags/OwnType`` (0x80–0x94), and the batch layer model of
/// RasterKitBatch in ``StateTags/Layer`` (0xA0–0xB9). A byte must never change meaning: keys
/// stored on disk would then match other states.
enum StateTag: UInt8, CaseIterable {
    case bool = 1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint, float, double
    case string, bytes, date, url, uuid
    // Key format 3: the standard library's and Foundation's types whose storage plans cannot read.
    case int128, uint128, float16, float80, simd, characterSet, timeZone, calendar, locale, attributedString
    case indexSet
    case none = 0x20, some, sequence, dictionary, set, structure, enumeration, tuple, object, backReference
    /// `opaque` is no longer written (format 3 refuses what it keyed by type alone); kept so
    /// that its byte is never given another meaning.
    case custom, opaque, metatype
    /// An existential's dynamic type, in front of its value (format 3).
    case existential
    case header = 0x40, size, scale, capInsets, minimumFrame
}

/// The tag bytes of types outside the standard library (see ``StateTag``).
package enum StateTags {
    /// RasterKit's own value types (StateHashable+RasterKit.swift).
    package enum OwnType {
        static let point: UInt8 = 0x80, size: UInt8 = 0x81, rect: UInt8 = 0x82, insets: UInt8 = 0x83
        static let color: UInt8 = 0x84, radii: UInt8 = 0x85, transform: UInt8 = 0x86, path: UInt8 = 0x87
        static let gradient: UInt8 = 0x88, linear: UInt8 = 0x89, radial: UInt8 = 0x8A, imagePattern: UInt8 = 0x8B
        static let stroke: UInt8 = 0x8C, text: UInt8 = 0x8D, shadow: UInt8 = 0x8E, image: UInt8 = 0x8F
        static let paint: UInt8 = 0x90, mask: UInt8 = 0x91, rawValue: UInt8 = 0x92, span: UInt8 = 0x93
        static let sizing: UInt8 = 0x94

        static let all: [UInt8] = [point, size, rect, insets, color, radii, transform, path, gradient, linear, radial,
                                   imagePattern, stroke, text, shadow, image, paint, mask, rawValue, span, sizing]
    }

    /// The layer model of RasterKitBatch (Layer+StateHashable.swift).
    package enum Layer {
        package static let shape: UInt8 = 0xA0, text: UInt8 = 0xA1, image: UInt8 = 0xA2, svg: UInt8 = 0xA3
        package static let group: UInt8 = 0xA4, component: UInt8 = 0xA5, inset: UInt8 = 0xA6, rect: UInt8 = 0xA7
        package static let color: UInt8 = 0xA8, linear: UInt8 = 0xA9, radial: UInt8 = 0xAA, none: UInt8 = 0xAB
        package static let shapeRect: UInt8 = 0xB0, roundedRect: UInt8 = 0xB1, ellipse: UInt8 = 0xB2, path: UInt8 = 0xB3
        package static let maskPaint: UInt8 = 0xB4, maskLayers: UInt8 = 0xB5, transform: UInt8 = 0xB6
        package static let stack: UInt8 = 0xB7, spacer: UInt8 = 0xB8, naturalSize: UInt8 = 0xB9

        static let all: [UInt8] = [shape, text, image, svg, group, component, inset, rect, color, linear, radial, none,
                                   shapeRect, roundedRect, ellipse, path, maskPaint, maskLayers, transform, stack, spacer,
                                   naturalSize]
    }

    /// Every registered byte, for the test that no two mean the same.
    static var all: [UInt8] { StateTag.allCases.map(\.rawValue) + OwnType.all + Layer.all }
}
