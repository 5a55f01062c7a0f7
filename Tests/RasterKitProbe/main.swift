// rasterkit-probe: a small program the tests start as a separate process, to check what must
// hold across processes. `digests` prints the cache keys of fixed sample states, one
// "name digest" line each.
import Foundation
import RasterKit

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "digests":
    for (name, key) in ProbeSamples.keys() { print(name, key.digest) }
default:
    FileHandle.standardError.write(Data("usage: RasterKitProbe digests\n".utf8))
    exit(2)
}
