/// The types a key plan refuses whatever they hold, decided from the type alone before any
/// plan for it is made. Kinds of type that cannot be read at all (closures, builtin storage)
/// are refused by ``TypePlanBuilder`` as it meets them; what the standard library and
/// Foundation ship a conformance for never gets here.
enum KeyRefusals {
    static func reason(for type: Any.Type) -> StateKeyError.Reason? {
        if RuntimeABI.isNonCopyable(type) { return .nonCopyable }
        if type is any _Pointer.Type || type == OpaquePointer.self || type == ObjectIdentifier.self { return .pointer }
        guard RuntimeABI.Kind(of: type) == .class || RuntimeABI.Kind(of: type) == .structure else { return nil }
        if type is any Actor.Type { return .actor }
        // A key path's components, and a managed buffer's elements, live in memory after the
        // object's stored properties; CoreFoundation-backed objects keep theirs behind `_CFInfo`.
        if type is AnyKeyPath.Type || isManagedBuffer(type) || TypeIdentity.stableName(of: type) == "Foundation._CFInfo" {
            return .opaqueObject
        }
        return nil
    }

    private static func isManagedBuffer(_ type: Any.Type) -> Bool {
        var current: Any.Type? = type
        while let level = current, RuntimeABI.Kind(of: level) == .class {
            if _typeName(level, qualified: true).hasPrefix("Swift.ManagedBuffer<") { return true }
            current = RuntimeABI.superclass(of: level)
        }
        return false
    }
}
