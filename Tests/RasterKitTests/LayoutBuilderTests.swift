import Testing
@testable import RasterKit

/// The statements a `Stack { … }` body may hold, and the children each makes, in order.
@Suite struct LayoutBuilderTests {
    private func words(_ stack: Stack) -> [String] {
        stack.children.map { element in
            if case .text(let run) = element.content { run.text } else { "·" }
        }
    }

    @Test func eachStatementAddsItsChildrenInOrder() {
        let flag = true, other = false
        let extra = [Text("d").element, Text("e").element]
        let stack = Stack(.horizontal) {
            Text("a")
            if flag { Text("b") }
            if other { Text("never") }
            if other { Text("no") } else { Text("c") }
            extra
            for word in ["f", "g"] {
                Text(word)
                Spacer()
            }
            switch flag {
            case true: Text("h")
            case false: Text("never")
            }
        }
        #expect(words(stack) == ["a", "b", "c", "d", "e", "f", "·", "g", "·", "h"])
    }

    @Test func anEmptyBodyMakesNoChildren() {
        #expect(Stack(.vertical) {}.children.isEmpty)
        let stack = Stack(.vertical) {
            for _ in 0..<0 { Text("none") }
        }
        #expect(stack.children.isEmpty)
    }
}
