/// How soon an asynchronous render is wanted.
public enum RenderPriority: Int, Hashable, Sendable, Comparable, CaseIterable {
    /// Wanted ahead of time: runs one at a time, only while no urgent work is queued or running.
    case prefetch
    /// Wanted now: runs in parallel, up to the rasterizer's `maxConcurrentDraws`.
    case urgent

    /// `prefetch` is lower than `urgent`.
    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
