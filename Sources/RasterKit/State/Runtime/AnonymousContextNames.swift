import Foundation

/// The linker names of the runtime's anonymous context descriptors — the contexts of types
/// declared `private`/`fileprivate` or inside a function — read from the symbol table of the
/// binary that defines them.
///
/// The runtime names such a context by its address (`(unknown context at $7f…)`), which moves
/// whenever the binary changes; optimised builds name a private context by its file's private
/// discriminator instead, but debug builds and function-local types do not. The descriptor's
/// symbol (`$s4Demo6Hidden33_50E2…LLVMXX`) holds the same discriminator, or the enclosing
/// function's mangled name, which do not move. A stripped binary has no symbol table: its
/// contexts keep their position (see ``TypeIdentity``).
enum AnonymousContextNames {
    /// The symbol of the anonymous context descriptor at `address`, or nil.
    static func symbol(at address: UInt) -> String? {
        guard let image = ImageLookup.image(containing: address) else { return nil }
        let table = tables.withLock { tables in
            if let table = tables[image.path] { return table }
            let table = ContextSymbolTable(path: image.path)
            tables[image.path] = table
            return table
        }
        guard let table else { return nil }
        return table.symbols[table.isExecutable ? UInt64(address) : UInt64(address - image.base)]
    }

    private static let tables = Lock<[String: ContextSymbolTable?]>([:])
}

/// The anonymous context descriptors' symbols of one ELF file, by address (absolute in an
/// executable linked at a fixed address, relative to the load address otherwise).
private struct ContextSymbolTable {
    var symbols: [UInt64: String] = [:]
    var isExecutable = false

    /// Nil when the file cannot be read or has no symbol table. Every offset is checked against
    /// the file's size before it is read.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 64 else { return nil }
        let size = Int(info.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        let file = UnsafeRawBufferPointer(start: mapped, count: size)
        guard let table = Self.read(file) else { return nil }
        self = table
    }

    private init() {}

    private static func read(_ file: UnsafeRawBufferPointer) -> ContextSymbolTable? {
        // ELF64, little-endian.
        guard file.count >= 64, file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46,
              file[4] == 2, file[5] == 1 else { return nil }
        func u16(_ offset: Int) -> Int? { offset >= 0 && offset + 2 <= file.count ? Int(file.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) : nil }
        func u32(_ offset: Int) -> Int? { offset >= 0 && offset + 4 <= file.count ? Int(file.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) : nil }
        func u64(_ offset: Int) -> UInt64? { offset >= 0 && offset + 8 <= file.count ? file.loadUnaligned(fromByteOffset: offset, as: UInt64.self) : nil }
        guard let type = u16(16), let sectionsAt = u64(40), let entrySize = u16(58), let count = u16(60),
              entrySize >= 64, sectionsAt < UInt64(file.count) else { return nil }
        var table = ContextSymbolTable()
        table.isExecutable = type == 2  // ET_EXEC
        for index in 0..<count {
            let section = Int(sectionsAt) + index * entrySize
            guard u32(section + 4) == 2,  // SHT_SYMTAB
                  let symbolsAt = u64(section + 24), let symbolsSize = u64(section + 32), let link = u32(section + 40),
                  link < count else { continue }
            let strings = Int(sectionsAt) + link * entrySize
            guard let stringsAt = u64(strings + 24), let stringsSize = u64(strings + 32),
                  stringsAt <= UInt64(file.count), stringsSize <= UInt64(file.count) - stringsAt,
                  symbolsAt <= UInt64(file.count), symbolsSize <= UInt64(file.count) - symbolsAt else { continue }
            let names = UnsafeRawBufferPointer(rebasing: file[Int(stringsAt)..<Int(stringsAt + stringsSize)])
            for symbol in stride(from: Int(symbolsAt), to: Int(symbolsAt + symbolsSize) - 23, by: 24) {
                guard let nameAt = u32(symbol), let value = u64(symbol + 8), nameAt < names.count,
                      let name = Self.anonymousContextName(in: names, at: nameAt) else { continue }
                table.symbols[value] = name
            }
        }
        return table.symbols.isEmpty ? nil : table
    }

    /// The NUL-terminated name at `offset` when it ends in `MXX` (an anonymous context
    /// descriptor); nil otherwise, without making a string.
    private static func anonymousContextName(in names: UnsafeRawBufferPointer, at offset: Int) -> String? {
        var end = offset
        while end < names.count, names[end] != 0 { end += 1 }
        guard end - offset > 5, end < names.count, names[end - 3] == UInt8(ascii: "M"), names[end - 2] == UInt8(ascii: "X"),
              names[end - 1] == UInt8(ascii: "X") else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: names[offset..<end]), as: UTF8.self)
    }
}

/// Which loaded binary holds an address, through glibc's `dladdr`.
enum ImageLookup {
    struct Image {
        /// The file, `/proc/self/exe` for the main program.
        let path: String
        /// Where it is loaded.
        let base: UInt
    }

    static func image(containing address: UInt) -> Image? {
        guard let pointer = UnsafeRawPointer(bitPattern: address), let dladdr else { return nil }
        // Dl_info: file name, file base, symbol name, symbol address.
        var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        guard withUnsafeMutablePointer(to: &info, { dladdr(pointer, UnsafeMutableRawPointer($0)) }) != 0,
              let base = info.1 else { return nil }
        let name = info.0.map { String(cString: $0) } ?? ""
        // The main program is reported by the name it was started with (or none), which may not
        // lead to the file from here.
        let isMain = name.isEmpty || UInt(bitPattern: base) == mainProgramBase
        return Image(path: isMain ? "/proc/self/exe" : name, base: UInt(bitPattern: base))
    }

    /// Where the main program is loaded: the image holding its entry point (`AT_ENTRY`).
    private static let mainProgramBase: UInt? = {
        guard let dladdr, let symbol = dlsym(nil, "getauxval") else { return nil }
        let getauxval = unsafeBitCast(symbol, to: (@convention(c) (UInt) -> UInt).self)
        guard let entry = UnsafeRawPointer(bitPattern: getauxval(9)) else { return nil }
        var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        guard withUnsafeMutablePointer(to: &info, { dladdr(entry, UnsafeMutableRawPointer($0)) }) != 0, let base = info.1 else { return nil }
        return UInt(bitPattern: base)
    }()

    /// glibc's `dladdr`, which Swift's Glibc module does not import (it needs `_GNU_SOURCE`).
    static let dladdr: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32)? = {
        guard let symbol = dlsym(nil, "dladdr") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32).self)
    }()
}
