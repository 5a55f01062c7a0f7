import Foundation

/// Which cached renders a removal picks, on either tier: every render of one component type,
/// or every render stored more than an age ago.
///
/// ```swift
/// try rasterizer.cache.removeAll(where: .typeName("MyApp.Badge"))
/// try rasterizer.cache.removeAll(where: .olderThan(7 * 24 * 60 * 60))
/// ```
///
/// Age counts from when the render entered the tier: for the disk store, when the entry was
/// written; for memory, when the image was drawn, decoded from disk or inserted.
public struct CacheEntryFilter: Hashable, Sendable, CustomStringConvertible {
    enum Criterion: Hashable, Sendable {
        case typeName(String)
        case olderThan(TimeInterval)
    }

    let criterion: Criterion

    /// Every render of the component type named `name`: fully qualified as in
    /// ``CacheKey/typeName`` (`MyApp.Badge`), or without its module (`Badge`) when only one
    /// module's type has that name (removing throws ``CacheRemovalError/ambiguousTypeName(_:candidates:)``
    /// when several do).
    public static func typeName(_ name: String) -> CacheEntryFilter { CacheEntryFilter(criterion: .typeName(name)) }

    /// Every render stored more than `age` seconds ago (0 picks every render stored before now).
    public static func olderThan(_ age: TimeInterval) -> CacheEntryFilter { CacheEntryFilter(criterion: .olderThan(age)) }

    /// `type NAME` or `older than N s`.
    public var description: String {
        switch criterion {
        case .typeName(let name): "type \(name)"
        case .olderThan(let age): "older than \(age.compactDescription) s"
        }
    }

    /// Throws ``CacheRemovalError`` for a filter that would be a mistake to run: an empty type
    /// name, or an age that is negative, NaN or infinite.
    public func validate() throws(CacheRemovalError) {
        switch criterion {
        case .typeName(let name):
            if name.isEmpty { throw .emptyTypeName }
        case .olderThan(let age):
            if !age.isFinite || age < 0 { throw .invalidAge(age) }
        }
    }

    /// Whether an entry with `key`, stored at `stored` (seconds since 1970), is picked at `now`,
    /// when the type name given has been resolved to `resolvedTypeName` (see
    /// ``resolvedTypeName(among:)``; ignored by an age filter).
    public func matches(_ key: CacheKey, stored: Double, now: Double, resolvedTypeName: String?) -> Bool {
        switch criterion {
        case .typeName: key.typeName == resolvedTypeName
        case .olderThan(let age): stored < now - age
        }
    }

    /// The one of `typeNames` (names as ``CacheKey/typeName`` spells them) that this filter's
    /// type name names: the same text, or else the one that is the same without its module.
    /// Nil when none is; nil too for an age filter. A store resolves the name once, among the
    /// type names it holds, before it removes anything.
    ///
    /// - Throws: ``CacheRemovalError/ambiguousTypeName(_:candidates:)`` when types of several
    ///   modules have the name.
    public func resolvedTypeName(among typeNames: some Sequence<String>) throws(CacheRemovalError) -> String? {
        guard case .typeName(let name) = criterion else { return nil }
        var candidates: Set<String> = []
        for typeName in typeNames {
            if typeName == name { return name }
            if let short = Self.withoutModule(typeName), short == name { candidates.insert(typeName) }
        }
        guard candidates.count <= 1 else { throw .ambiguousTypeName(name, candidates: candidates.sorted()) }
        return candidates.first
    }

    /// `Badge` for `MyApp.Badge`, `Fallback<MyApp.Photo, RasterKit.Swatch>` for
    /// `RasterKit.Fallback<MyApp.Photo, RasterKit.Swatch>`: the text after the first dot that
    /// comes before any generic argument.
    private static func withoutModule(_ typeName: String) -> Substring? {
        guard let dot = typeName.firstIndex(where: { $0 == "." || $0 == "<" || $0 == "(" }), typeName[dot] == "." else { return nil }
        return typeName[typeName.index(after: dot)...]
    }
}

/// A removal that was refused before anything was removed.
public enum CacheRemovalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``CacheEntryFilter/typeName(_:)`` with an empty name, which no component has.
    case emptyTypeName
    /// ``CacheEntryFilter/olderThan(_:)`` with an age that is negative, NaN or infinite.
    case invalidAge(Double)
    /// A digest that is not 32 hexadecimal digits (``CacheKey/digest``).
    case invalidDigest(String)
    /// A type name without its module that types of several modules have: the fully qualified
    /// names it could mean.
    case ambiguousTypeName(String, candidates: [String])

    /// What was refused, and what is accepted.
    public var description: String {
        switch self {
        case .emptyTypeName:
            "a type name to remove must not be empty"
        case .invalidAge(let age):
            "an age to remove must be a finite number of seconds, 0 or more, not \(age)"
        case .invalidDigest(let text):
            "'\(text)' is not a cache key digest: expected 32 hexadecimal digits"
        case .ambiguousTypeName(let name, let candidates):
            "'\(name)' names types of several modules (\(candidates.joined(separator: ", "))): give the one to remove in full"
        }
    }
}

extension StableDigest {
    /// Parses exactly 32 hexadecimal digits (either case), or throws ``CacheRemovalError/invalidDigest(_:)``.
    static func parsing(_ text: String) throws -> StableDigest {
        guard let digest = StableDigest(hex: text) else { throw CacheRemovalError.invalidDigest(text) }
        return digest
    }
}
