import Testing
@testable import RasterKit

/// Every tag byte written into keys is registered in one place, and no two mean the same.
@Suite struct StateTagRegistryTests {
    @Test func everyTagByteIsRegisteredOnce() {
        let all = StateTags.all
        #expect(Set(all).count == all.count, "a tag byte is used twice: \(all.sorted())")
        // The ranges the registry documents.
        #expect(StateTags.OwnType.all.allSatisfy { (0x80...0x94).contains($0) })
        #expect(StateTags.Layer.all.allSatisfy { (0xA0...0xB9).contains($0) })
        #expect(StateTag.allCases.allSatisfy { $0.rawValue < 0x80 })
    }
}
