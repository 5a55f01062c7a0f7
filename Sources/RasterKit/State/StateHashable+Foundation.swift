import Foundation

// Foundation's values whose storage is not what they mean: caches, values computed for the
// current moment, CoreFoundation storage, random version numbers. Each writes what it is.

extension TimeZone: StateHashable {
    /// Writes a time zone tag, then its identifier (`Europe/Paris`, `GMT+0100`): the zone itself,
    /// not its offset now, which changes twice a year.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .timeZone)
        hasher.write(identifier)
    }
}

extension Locale: StateHashable {
    /// Writes a locale tag, then its identifier.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .locale)
        hasher.write(identifier)
    }
}

extension Calendar: StateHashable {
    /// Writes a calendar tag, then what sets its rules: its identifier, locale, time zone, first
    /// weekday and minimum days in the first week.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .calendar)
        hasher.write(String(describing: identifier))
        hasher.write(locale?.identifier ?? "")
        hasher.write(timeZone.identifier)
        hasher.write(firstWeekday)
        hasher.write(minimumDaysInFirstWeek)
    }
}

extension CharacterSet: StateHashable {
    /// Writes a character set tag, then its bitmap representation (every member, in a canonical
    /// form).
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .characterSet)
        bitmapRepresentation.hashState(into: &hasher)
    }
}

extension IndexSet: StateHashable {
    /// Writes an index set tag and the number of ranges, then each range's bounds.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .indexSet)
        hasher.write(rangeView.count)
        for range in rangeView {
            hasher.write(range.lowerBound)
            hasher.write(range.upperBound)
        }
    }
}

extension AttributedString: StateHashable {
    /// Writes an attributed string tag and the number of runs, then each run's characters and
    /// attributes (every attribute's value, in any order it was set).
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .attributedString)
        let runs = self.runs
        hasher.write(runs.count)
        for run in runs {
            hasher.write(String(self[run.range].characters))
            hasher.combine(reflecting: run.attributes)
        }
    }
}
