/// The kind byte in front of every value in the canonical stream, so that values of different
/// kinds never write the same bytes.
enum StateTag: UInt8 {
    case bool = 1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint, float, double
    case string, bytes, date, url, uuid
    case none = 0x20, some, sequence, dictionary, set, structure, enumeration, tuple, object, backReference
    case custom, opaque, metatype
    case header = 0x40, size, scale, capInsets, minimumFrame
}
