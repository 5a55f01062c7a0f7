import Foundation
import RasterKit
import RasterKitBatch
import Synchronization

/// Shows a batch's progress on stderr: a redrawn bar on a terminal
/// (`[#####.....] 120/400  53.2/s  ETA 5s`, at most ten times a second), plain lines at most
/// once a second otherwise, nothing at all in silent mode (`--json`).
final class ProgressBar: Sendable {
    enum Style: Sendable {
        case terminal, lines, silent

        /// A bar when stderr is a terminal, lines when it is a file or pipe.
        static func forStandardError(silent: Bool) -> Style {
            silent ? .silent : isatty(STDERR_FILENO) == 1 ? .terminal : .lines
        }
    }

    let style: Style
    private let lastShown: Lock<(time: Double, drawn: Bool)>
    static let barWidth = 30

    init(style: Style) {
        self.style = style
        // A bar shows at once; lines start after a second, so a quick run prints only its summary.
        lastShown = Lock((style == .terminal ? -.infinity : 0, false))
    }

    /// Reports `progress`; called after every output, shown only as often as the style allows.
    func update(_ progress: BatchProgress) {
        guard style != .silent else { return }
        let interval = style == .terminal ? 0.1 : 1.0
        let isLast = progress.done == progress.total
        let show = lastShown.withLock { last in
            guard (isLast && (style == .terminal || last.drawn)) || progress.elapsed - last.time >= interval else {
                return false
            }
            last = (progress.elapsed, true)
            return true
        }
        guard show else { return }
        // On a terminal: back to the line's start, the bar, then clear what a longer bar left.
        let text = style == .terminal ? "\r" + ProgressBar.bar(progress) + "\u{1B}[K"
            : ProgressBar.line(progress) + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the bar's line, so what follows starts on a line of its own.
    func finish() {
        guard style == .terminal, lastShown.withLock({ $0.drawn }) else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    static func bar(_ progress: BatchProgress) -> String {
        let filled = min(barWidth, Int((progress.fractionDone * Double(barWidth)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        return "[\(bar)] \(counts(progress))"
    }

    static func line(_ progress: BatchProgress) -> String { counts(progress) }

    /// `120/400  53.2/s  ETA 5s`, plus failures so far.
    static func counts(_ progress: BatchProgress) -> String {
        var text = "\(progress.done)/\(progress.total)  " + DecimalText.fixed(progress.rate, digits: 1) + "/s"
        if progress.done < progress.total, let remaining = progress.estimatedSecondsRemaining {
            text += "  ETA " + duration(remaining)
        }
        if progress.failed > 0 { text += "  \(progress.failed) failed" }
        return text
    }

    /// `5s`, `2m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, total % 3600 / 60)
    }
}
