import CFuzzDriver
import Foundation

// SwiftPM gives every executable its own `main`, so libFuzzer runs through its driver entry point.
_ = ServerRequestHarness.responders
var arguments = CommandLine.argc
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argumentVector) { bytes, count in ServerRequestHarness.run(bytes, count) })
