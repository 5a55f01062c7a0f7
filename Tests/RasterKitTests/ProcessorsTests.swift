import Foundation
import Testing
@testable import RasterKit

/// ``Processors`` and ``KernelFiles``: the processor count and cgroup folder read from `/proc`
/// and `/sys` with plain reads, their parsers fed good and bad text.
@Suite struct ProcessorsTests {
    @Test(arguments: [
        ("Name:\tx\nCpus_allowed:\tff\nCpus_allowed_list:\t0-3,8,10-11\nMems_allowed:\t1\n", 7),
        ("Cpus_allowed_list:\t0\n", 1),
        ("Cpus_allowed_list:\t0-1\n", 2),
        ("Cpus_allowed_list: 2, 5-6\n", 3),
    ])
    func theAllowedListIsCounted(status: String, count: Int) {
        #expect(Processors.allowedCount(status: status) == count)
    }

    @Test(arguments: ["", "Cpus_allowed:\tff\n", "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\t\n",
                      "Cpus_allowed_list:\tx\n", "Cpus_allowed_list:\t0-1-2\n", "Cpus_allowed_list:\t0,,1\n", "Cpus_allowed_list:\t0-\n"])
    func aMissingOrMalformedListCountsNothing(status: String) {
        #expect(Processors.allowedCount(status: status) == nil)
    }

    @Test func quotasRoundUpAndNoneIsNil() {
        #expect(Processors.quotaCount(quota: "150000", period: "100000") == 2)
        #expect(Processors.quotaCount(quota: "100000", period: "100000") == 1)
        #expect(Processors.quotaCount(quota: "5000", period: "100000") == 1)
        for (quota, period) in [("max", "100000"), ("-1", "100000"), ("100000", "0"), ("", ""), ("1e5", "100000")] {
            #expect(Processors.quotaCount(quota: Substring(quota), period: Substring(period)) == nil, "\(quota) \(period)")
        }
    }

    @Test func theCgroupFolderComesFromTheUnifiedLine() {
        #expect(KernelFiles.cgroupDirectory(membership: "0::/user.slice/job.scope\n") == "/sys/fs/cgroup/user.slice/job.scope")
        #expect(KernelFiles.cgroupDirectory(membership: "0::/\n") == "/sys/fs/cgroup")
        #expect(KernelFiles.cgroupDirectory(membership: "12:cpu,cpuacct:/\n1:name=systemd:/\n") == nil, "cgroup v1 only")
        #expect(KernelFiles.cgroupDirectory(membership: "") == nil)
    }

    @Test func kernelFilesAreReadWhole() throws {
        let status = try #require(KernelFiles.text("/proc/self/status"))
        #expect(status.contains("Cpus_allowed_list:"), "a file that reports a size of 0 is read to its end")
        #expect(KernelFiles.text("/proc/self/status", limit: 10)?.utf8.count == 10)
        #expect(KernelFiles.text("/nonexistent/file") == nil)
        #expect(KernelFiles.text("/proc/self") == nil, "a folder has no text")
    }

    @Test func thisProcessMayUseAtLeastOneProcessorAndNoMoreThanTheMachineHas() {
        #expect(Processors.available >= 1)
        #expect(Processors.available <= max(1, Int(sysconf(Int32(_SC_NPROCESSORS_CONF)))))
    }
}
