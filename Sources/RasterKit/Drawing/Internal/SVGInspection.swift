/// What an SVG would make librsvg do, measured from its bytes before librsvg sees them: how
/// large the document becomes once its entities are expanded, and how many characters of text it
/// draws. A few kilobytes of SVG can declare an entity and use it thousands of times inside
/// `<text>`; librsvg then lays out hundreds of megabytes of text, and GLib aborts the whole
/// process when an allocation fails. Such documents are refused here, as what they are.
///
/// The scan is a small XML tokenizer, tolerant of anything it does not understand (librsvg
/// reports malformed input itself): it follows comments, CDATA sections, processing
/// instructions, the DOCTYPE's internal subset (for `<!ENTITY name "value">` declarations, whose
/// expansions may refer to other entities), tags, attribute values and character data.
struct SVGInspection {
    /// Bytes of the document with every entity reference replaced by its expansion.
    private(set) var expandedBytes = 0
    /// Characters of character data inside `<text>` elements, entities expanded.
    private(set) var textCharacters = 0
    /// For each element with an id (the document is the empty id): the ids its own `<use>`
    /// elements refer to, and the elements with ids directly inside it. Each reference is kept
    /// once, with its innermost owner, so the record grows with the document, not its depth.
    private var owned: [[UInt8]: (uses: [[UInt8]], nested: [[UInt8]])] = [:]
    /// For each open element, the id of the innermost element with one around or at it.
    private var owners: [[UInt8]] = []
    /// How deep the recursive walks below may go: entities in entities (libxml2 stops at 40) and
    /// elements with ids inside each other or referring to each other. Past it, a document is
    /// refused rather than walked on a thread's stack.
    private static let maximumNesting = 256

    /// Throws when `data` (plain or gzip-compressed) is over `limits`.
    static func check(_ data: [UInt8], limits: ResourceLimits, source: String?) throws(SVGError) {
        var bytes = data
        if data.count >= 2, data[0] == 0x1F, data[1] == 0x8B {
            guard let inflated = GzipInflater.inflate(data, limit: limits.maximumSVGExpandedBytes) else {
                throw .overLimit(what: "its uncompressed size", limit: limits.maximumSVGExpandedBytes, unit: "bytes", source: source)
            }
            bytes = inflated
        }
        var inspection = SVGInspection(limit: limits.maximumSVGExpandedBytes)
        guard inspection.scan(bytes) else {
            throw .overLimit(what: "its size with entities expanded", limit: limits.maximumSVGExpandedBytes, unit: "bytes",
                             source: source)
        }
        guard inspection.textCharacters <= limits.maximumSVGTextCharacters else {
            throw .overLimit(what: "its text", limit: limits.maximumSVGTextCharacters, unit: "characters", source: source)
        }
        guard inspection.mostUseCopies(limit: limits.maximumSVGUseCopies) <= limits.maximumSVGUseCopies else {
            throw .overLimit(what: "the copies its <use> elements make", limit: limits.maximumSVGUseCopies, unit: "copies",
                             source: source)
        }
    }

    /// The most copies any element (or the document) stands for once its `<use>` references are
    /// followed, each a copy of everything its target stands for: `<use>` elements that refer to
    /// groups of two `<use>` elements, level upon level, double with every level, and librsvg draws
    /// every copy in one call that no time limit can stop. Counting stops past `limit`; a cycle
    /// counts as past it (librsvg refuses those anyway).
    func mostUseCopies(limit: Int) -> Int {
        guard owned.values.contains(where: { !$0.uses.isEmpty }) else { return 1 }
        // What `<use>` elements anywhere inside an element add: their targets' copies, and what
        // the elements with ids inside it add.
        var added: [[UInt8]: Int] = [:]
        var visiting: [[UInt8]] = []
        func copiesAdded(inside id: [UInt8]) -> Int {
            if let known = added[id] { return known }
            guard !visiting.contains(id), visiting.count < Self.maximumNesting else { return limit + 1 }
            visiting.append(id)
            defer { visiting.removeLast() }
            var total = 0
            let contents = owned[id] ?? ([], [])
            for target in contents.uses where total <= limit { total = min(total + 1 + copiesAdded(inside: target), limit + 1) }
            for child in contents.nested where total <= limit { total = min(total + copiesAdded(inside: child), limit + 1) }
            added[id] = total
            return total
        }
        return owned.keys.reduce(1) { max($0, 1 + copiesAdded(inside: $1)) }
    }

    private let limit: Int
    /// Declared general entities: their replacement text, as bytes.
    private var entities: [[UInt8]: [UInt8]] = [:]
    /// Expanded lengths worked out so far: bytes, and characters when drawn as text.
    private var expansions: [[UInt8]: (bytes: Int, characters: Int)] = [:]
    private var expanding: Set<[UInt8]> = []
    /// How deep inside a `<text>` element the scan is (0: outside).
    private var textDepth = 0

    init(limit: Int) { self.limit = limit }

    /// Scans `bytes`; false as soon as the expanded size passes the limit, or for entities that
    /// refer to themselves.
    mutating func scan(_ bytes: [UInt8]) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            if bytes[index] != UInt8(ascii: "<") {
                // Character data up to the next tag.
                let start = index
                while index < count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                guard addCharacterData(bytes, start..<index, asText: textDepth > 0, inContent: true) else { return false }
                continue
            }
            if Self.matches(bytes, at: index, "<!--") {
                index = Self.find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? count
            } else if Self.matches(bytes, at: index, "<![CDATA[") {
                let end = Self.find(bytes, "]]>", from: index + 9) ?? count
                guard add(end - index - 9, characters: textDepth > 0 ? Self.characters(bytes, index + 9..<end) : 0) else { return false }
                index = min(end + 3, count)
            } else if Self.matches(bytes, at: index, "<?") {
                index = Self.find(bytes, "?>", from: index + 2).map { $0 + 2 } ?? count
            } else if Self.matches(bytes, at: index, "<!DOCTYPE") {
                index = declarations(bytes, from: index + 9)
            } else {
                guard let end = tag(bytes, from: index) else { return false }
                index = end
            }
        }
        return true
    }

    /// A start or end tag at `index`: the index after it, or nil past the limit.
    private mutating func tag(_ bytes: [UInt8], from index: Int) -> Int? {
        var position = index + 1
        let isEnd = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if isEnd { position += 1 }
        let nameStart = position
        while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">"),
              bytes[position] != UInt8(ascii: "/") { position += 1 }
        let name = bytes[nameStart..<position]
        // Attribute values, which may hold entity references too.
        var quote: UInt8?
        var valueStart = 0
        var valueBytes = 0
        while position < bytes.count {
            let byte = bytes[position]
            if let open = quote {
                if byte == open {
                    guard addCharacterData(bytes, valueStart..<position, asText: false, inContent: false) else { return nil }
                    valueBytes += position - valueStart
                    quote = nil
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                valueStart = position + 1
            } else if byte == UInt8(ascii: ">") {
                break
            }
            position += 1
        }
        let selfClosing = position > index && bytes[position - 1] == UInt8(ascii: "/")
        // The tag's own bytes; its attribute values were counted, expanded, above.
        guard add(min(position + 1, bytes.count) - index - valueBytes, characters: 0) else { return nil }
        if isEnd {
            if !owners.isEmpty { owners.removeLast() }
        } else {
            noteReferences(name: name, attributes: bytes[name.endIndex..<position], selfClosing: selfClosing)
        }
        if isEnd {
            if textDepth > 0 { textDepth -= 1 }
        } else if !selfClosing {
            if textDepth > 0 {
                textDepth += 1
            } else if Self.localName(name).elementsEqual("text".utf8) {
                textDepth = 1
            }
        }
        return min(position + 1, bytes.count)
    }

    /// Records a start tag's `id`, and for `<use>`, the id it refers to (`href` or `xlink:href`,
    /// `#id`), owned by the innermost element with an id around it (the element itself when it has one).
    private mutating func noteReferences(name: ArraySlice<UInt8>, attributes: ArraySlice<UInt8>, selfClosing: Bool) {
        var id: [UInt8]?
        var reference: [UInt8]?
        let isUse = Self.localName(name).elementsEqual("use".utf8)
        for (attribute, value) in Self.attributes(attributes) {
            if attribute.elementsEqual("id".utf8) {
                id = Array(value)
            } else if isUse, Self.localName(attribute).elementsEqual("href".utf8), value.first == UInt8(ascii: "#") {
                reference = Array(value.dropFirst())
            }
        }
        let enclosing = owners.last ?? []
        if let id { owned[enclosing, default: ([], [])].nested.append(id) }
        let owner = id ?? enclosing
        if let reference { owned[owner, default: ([], [])].uses.append(reference) }
        if !selfClosing { owners.append(owner) }
    }

    /// `name="value"` pairs of a tag, values unexpanded.
    private static func attributes(_ bytes: ArraySlice<UInt8>) -> [(ArraySlice<UInt8>, ArraySlice<UInt8>)] {
        var pairs: [(ArraySlice<UInt8>, ArraySlice<UInt8>)] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            let nameStart = index
            while index < bytes.endIndex, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
            let name = bytes[nameStart..<index]
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { continue }
            let quote = bytes[index]
            let valueStart = index + 1
            index = valueStart
            while index < bytes.endIndex, bytes[index] != quote { index += 1 }
            pairs.append((name, bytes[valueStart..<index]))
            index += 1
        }
        return pairs
    }

    /// The DOCTYPE from just after `<!DOCTYPE`: entity declarations in its internal subset are
    /// recorded. Returns the index after it.
    private mutating func declarations(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "["), bytes[index] != UInt8(ascii: ">") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return min(index + 1, bytes.count) }
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            if Self.matches(bytes, at: index, "<!ENTITY") {
                index = entityDeclaration(bytes, from: index + 8)
            } else if Self.matches(bytes, at: index, "<!--") {
                index = Self.find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? bytes.count
            } else if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                index += 1
                while index < bytes.count, bytes[index] != quote { index += 1 }
                index += 1
            } else {
                index += 1
            }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
        return min(index + 1, bytes.count)
    }

    /// `name "value">` after `<!ENTITY`; parameter entities (`% name`) and external ones are
    /// skipped: libxml2 neither expands nor loads them in SVG content.
    private mutating func entityDeclaration(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        let isParameter = index < bytes.count && bytes[index] == UInt8(ascii: "%")
        if isParameter { index += 1 }
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        let nameStart = index
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
        let name = Array(bytes[nameStart..<index])
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
            let quote = bytes[index]
            let valueStart = index + 1
            index = valueStart
            while index < bytes.count, bytes[index] != quote { index += 1 }
            if !isParameter, entities[name] == nil { entities[name] = Array(bytes[valueStart..<min(index, bytes.count)]) }
            index += 1  // past the closing quote
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                index += 1
                while index < bytes.count, bytes[index] != quote { index += 1 }
            }
            index += 1
        }
        return min(index + 1, bytes.count)
    }

    /// Adds character data (text or an attribute value), expanding entity references. What a
    /// declared entity expands to in element content counts as text wherever it stands: its
    /// replacement may itself be markup (`<text>…</text>`, written plainly or as `&#60;`), which
    /// this scan does not parse again, so it cannot tell whether it becomes text.
    private mutating func addCharacterData(_ bytes: [UInt8], _ range: Range<Int>, asText: Bool, inContent: Bool) -> Bool {
        guard let (length, characters, fromEntities) = expandedLength(of: bytes[range]) else { return false }
        return add(length, characters: asText ? characters : inContent ? fromEntities : 0)
    }

    /// The expanded length of text that may hold `&name;` references: bytes, characters, and
    /// the characters that declared entities produced.
    private mutating func expandedLength(of text: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var bytes = 0, characters = 0, fromEntities = 0
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "&"), let semicolon = text[index...].firstIndex(of: UInt8(ascii: ";")),
               semicolon - index <= 64 {
                let name = Array(text[(index + 1)..<semicolon])
                guard let expansion = expansion(of: name) else { return nil }
                bytes = Self.saturatingAdd(bytes, expansion.bytes)
                characters = Self.saturatingAdd(characters, expansion.characters)
                if entities[name] != nil { fromEntities = Self.saturatingAdd(fromEntities, expansion.characters) }
                if bytes > limit { return nil }
                index = semicolon + 1
                continue
            }
            bytes += 1
            if byte & 0xC0 != 0x80 { characters += 1 }
            index += 1
        }
        return (bytes, characters, fromEntities)
    }

    /// The expansion of `&name;`: one character for a character reference or a predefined
    /// entity, the recursive expansion of a declared one, nothing for an unknown one (librsvg
    /// reports it). Nil for an entity that refers to itself or expands past the limit.
    private mutating func expansion(of name: [UInt8]) -> (bytes: Int, characters: Int)? {
        if name.first == UInt8(ascii: "#") { return (1, 1) }
        if let known = expansions[name] { return known }
        guard let value = entities[name] else { return (1, 1) }
        guard !expanding.contains(name), expanding.count < Self.maximumNesting else { return nil }
        expanding.insert(name)
        defer { expanding.remove(name) }
        guard let (bytes, characters, _) = expandedLength(of: value[...]) else { return nil }
        expansions[name] = (bytes, characters)
        return (bytes, characters)
    }

    private mutating func add(_ bytes: Int, characters: Int) -> Bool {
        expandedBytes = Self.saturatingAdd(expandedBytes, bytes)
        textCharacters = Self.saturatingAdd(textCharacters, characters)
        return expandedBytes <= limit
    }

    // MARK: Bytes

    private static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func characters(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes[range].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The element name without its namespace prefix (`svg:text` → `text`).
    private static func localName(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
            return true
        }
    }

    private static func find(_ bytes: [UInt8], _ literal: StaticString, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if matches(bytes, at: index, literal) { return index }
            index += 1
        }
        return nil
    }
}
