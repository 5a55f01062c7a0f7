// rasterkit-probe: a small program the tests start as a separate process, to check what must
// hold across processes. `digests` prints the cache keys of fixed sample states, one
// "name digest" line each; the `store-…` commands share one disk store (see StoreCommands).
import Foundation
import RasterKit

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "digests":
    for (name, key) in try ProbeSamples.keys() + ValueSamples.keys() { print(name, key.digest) }
    if ProcessInfo.processInfo.environment["PROBE_NAMES"] != nil { for (name, key) in try ValueSamples.keys() { print(name, key.typeName) } }
case "processed-digests":
    for (name, key) in try ProcessedSamples.keys() { print(name, key.digest) }
case "store-write", "store-render", "store-verify", "store-flood", "store-remove", "store-default":
    exit(StoreCommands.run(arguments))
default:
    FileHandle.standardError.write(Data("usage: RasterKitProbe digests | processed-digests | store-write | store-render | store-verify | store-flood | store-remove | store-default\n".utf8))
    exit(2)
}
