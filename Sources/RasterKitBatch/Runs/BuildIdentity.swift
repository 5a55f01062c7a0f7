import RasterKit
import Foundation

/// What identifies the running program's build, for records that only hold for the build that
/// made them: the GNU build ID the linker puts in the executable (a hash of its contents, the
/// same for the same build on every machine), read from the loaded program's notes. Without
/// one, the executable file's stamp, which only holds on this machine until it is replaced.
enum BuildIdentity {
    static let current: String? = buildID().map { "build-id " + $0 } ?? FileStamp.of("/proc/self/exe", settledFor: -.infinity)

    /// The main program's `NT_GNU_BUILD_ID` note as hexadecimal digits, or nil. The program
    /// headers are found through the auxiliary vector (`AT_PHDR`, `AT_PHNUM`), read from
    /// `/proc/self/auxv` since Swift imports neither `getauxval` nor `dl_iterate_phdr`.
    private static func buildID() -> String? {
        guard let auxv = try? FileReader.read("/proc/self/auxv", limit: 1 << 16) else { return nil }
        var headers: UInt64 = 0, count: UInt64 = 0
        auxv.withUnsafeBytes { buffer in
            var offset = 0
            while offset + 16 <= buffer.count {
                let type = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let value = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                if type == 3 { headers = value } else if type == 5 { count = value }
                offset += 16
            }
        }
        // Elf64_Phdr: p_type (4), p_flags (4), p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align (8 each).
        let headerSize = 56
        guard headers != 0, count > 0, count < 1 << 16,
              let table = UnsafeRawPointer(bitPattern: UInt(headers)) else { return nil }
        let entries = (0..<Int(count)).map { table + $0 * headerSize }
        // The load address: where PT_PHDR says the table is, against where it is.
        guard let programHeaders = entries.first(where: { $0.loadUnaligned(as: UInt32.self) == 6 }) else { return nil }
        let base = UInt(headers) &- UInt(programHeaders.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        for entry in entries where entry.loadUnaligned(as: UInt32.self) == 4 {
            let address = base &+ UInt(entry.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let size = Int(entry.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
            guard let start = UnsafeRawPointer(bitPattern: address) else { continue }
            if let id = gnuBuildID(in: UnsafeRawBufferPointer(start: start, count: size)) {
                return HexDigits.of(id)
            }
        }
        return nil
    }

    /// The descriptor of the `GNU` note of type 3 (build ID) among the notes in `notes`.
    static func gnuBuildID(in notes: UnsafeRawBufferPointer) -> [UInt8]? {
        func aligned(_ value: Int) -> Int { (value + 3) & ~3 }
        var offset = 0
        while offset + 12 <= notes.count {
            let nameSize = Int(notes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let descriptorSize = Int(notes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let type = notes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let name = offset + 12
            let descriptor = name + aligned(nameSize)
            guard nameSize <= notes.count, descriptorSize <= notes.count, descriptor + descriptorSize <= notes.count else { return nil }
            if type == 3, nameSize == 4, Array(notes[name..<name + 4]) == Array("GNU\0".utf8), descriptorSize > 0 {
                return Array(notes[descriptor..<descriptor + descriptorSize])
            }
            offset = descriptor + aligned(descriptorSize)
        }
        return nil
    }
}
