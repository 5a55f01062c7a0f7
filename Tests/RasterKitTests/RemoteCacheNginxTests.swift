import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport
import RasterKitRemoteCache

/// The remote tier against a real nginx with WebDAV on a loopback port.
@Suite struct RemoteCacheNginxTests {
    private func configuration(timeout: Double = 1) -> RemoteCache.Configuration {
        var configuration = RemoteCache.Configuration()
        configuration.authorization = nil
        configuration.requestTimeout = timeout
        return configuration
    }

    private func machine(_ url: URL, disk: DiskFixture? = nil, timeout: Double = 1) throws -> Rasterizer {
        let remote = RemoteCache(url: url, configuration: configuration(timeout: timeout))
        return Rasterizer(cache: RasterCache(memoryLimit: 16 << 20, disk: try disk?.open(), remote: remote,
                                             respondsToMemoryPressure: false))
    }

    private func components(_ prefix: String, _ count: Int, draws: Counter) -> [Counted] {
        (0..<count).map { Counted(label: "\(prefix)-\($0)", draws: draws) }
    }

    @Test func twoMachinesWithTheirOwnStoresShareRenders() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let firstDisk = try DiskFixture("first"), secondDisk = try DiskFixture("second")
        defer { firstDisk.remove(); secondDisk.remove() }
        let draws = Counter()
        let first = try machine(server.writable, disk: firstDisk)
        let drawn = try components("shared", 6, draws: draws).map { try first.image(for: $0, size: Size(10), scale: 2) }
        #expect(first.cache.flushUploads(timeout: 10))
        #expect(first.cache.remoteStatistics?.uploads == 6 && first.cache.remoteStatistics?.misses == 6)

        let second = try machine(server.writable, disk: secondDisk)
        for (component, image) in zip(components("shared", 6, draws: draws), drawn) {
            let rendered = try second.render(RenderRequest(component, size: Size(10), scale: 2))
            #expect(rendered.origin == .remote)
            #expect(try rendered.image.pngData() == image.pngData())
        }
        #expect(draws.count == 6 && second.statistics.draws == 0 && second.cache.remoteStatistics?.hits == 6)
        // The second machine keeps them: a restart serves them from its own disk.
        try second.cache.flush()
        server.stop()
        let restarted = try machine(server.writable, disk: secondDisk)
        for component in components("shared", 6, draws: draws) {
            #expect(try restarted.render(RenderRequest(component, size: Size(10), scale: 2)).origin == .disk)
        }
    }

    @Test func aServerStoppedMidRunFailsNoRender() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let draws = Counter()
        let rasterizer = try machine(server.writable)
        for component in components("before", 4, draws: draws) { _ = try rasterizer.image(for: component, size: Size(8)) }
        #expect(rasterizer.cache.flushUploads(timeout: 10))
        server.stop()
        let started = Date()
        for component in components("after", 30, draws: draws) {
            #expect(try rasterizer.render(RenderRequest(component, size: Size(8))).origin == .drawn)
        }
        #expect(rasterizer.cache.flushUploads(timeout: 10))
        #expect(Date().timeIntervalSince(started) < 5)
        let statistics = try #require(rasterizer.cache.remoteStatistics)
        #expect(statistics.uploads == 4 && statistics.errors == 1 && statistics.skipped == 29)
        #expect(draws.count == 34)
    }

    @Test func aListenerThatNeverAnswersCostsOneTimeoutPerRun() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let draws = Counter()
        let rasterizer = try machine(listener.url, timeout: 0.5)
        let started = Date()
        for component in components("silent", 30, draws: draws) {
            #expect(try rasterizer.render(RenderRequest(component, size: Size(8))).origin == .drawn)
        }
        #expect(rasterizer.cache.flushUploads(timeout: 10))
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.45 && elapsed < 1.5, "one timeout, not one per render: \(elapsed) s")
        let statistics = try #require(rasterizer.cache.remoteStatistics)
        #expect(statistics.errors == 1 && statistics.skipped == 29 && statistics.uploads == 0)
        #expect(draws.count == 30)
    }

    @Test func corruptedAndTruncatedObjectsAreDrawnInstead() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let draws = Counter()
        let first = try machine(server.writable)
        let component = Counted(label: "damaged", draws: draws), other = Counted(label: "other", draws: draws)
        _ = try first.image(for: component, size: Size(8))
        _ = try first.image(for: other, size: Size(8))
        #expect(first.cache.flushUploads(timeout: 10))
        let key = first.key(for: component, size: Size(8)), otherKey = first.key(for: other, size: Size(8))
        let file = server.store.appendingPathComponent(RemoteObjectName(key: key).description)
        let original = try Data(contentsOf: file)
        let foreign = try Data(contentsOf: server.store.appendingPathComponent(RemoteObjectName(key: otherKey).description))
        var flipped = original
        flipped[flipped.count / 2] ^= 0x01
        for (index, damaged) in [flipped, original.prefix(original.count / 2), foreign, Data("not an object".utf8)].enumerated() {
            try damaged.write(to: file)
            let reader = try machine(server.writable)
            let origin = try reader.render(RenderRequest(component, size: Size(8))).origin
            #expect(origin == .drawn, "variant \(index)")
            #expect(reader.cache.remoteStatistics?.rejected == 1 && reader.cache.remoteStatistics?.errors == 0,
                    "variant \(index): \(String(describing: reader.cache.remoteStatistics))")
            // The redraw is uploaded over the damaged object: the store heals.
            #expect(reader.cache.flushUploads(timeout: 10))
            #expect(try Data(contentsOf: file) == original)
        }
        #expect(try machine(server.writable).render(RenderRequest(component, size: Size(8))).origin == .remote)
    }

    @Test func aReadOnlyCacheRefusingPutStillServesReads() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let draws = Counter()
        let publisher = try machine(server.writable)
        _ = try publisher.image(for: Counted(label: "published", draws: draws), size: Size(8))
        #expect(publisher.cache.flushUploads(timeout: 10))

        let reader = try machine(server.readOnly)
        #expect(try reader.render(RenderRequest(Counted(label: "published", draws: draws), size: Size(8))).origin == .remote)
        for component in components("local", 5, draws: draws) {
            #expect(try reader.render(RenderRequest(component, size: Size(8))).origin == .drawn)
            #expect(reader.cache.flushUploads(timeout: 10))
        }
        let statistics = try #require(reader.cache.remoteStatistics)
        #expect(statistics.isReadOnly && statistics.uploads == 0 && statistics.uploadErrors == 1)
        #expect(statistics.uploadsDropped == 4 && statistics.hits == 1 && statistics.errors == 0)
        #expect(try reader.render(RenderRequest(Counted(label: "published-too", draws: draws), size: Size(8))).origin == .drawn)
    }

    @Test func concurrentUploadsOfOneKeyLeaveOneIntactObject() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let component = Counted(label: "contended", draws: Counter())
        let image = try Rasterizer().image(for: component, size: Size(32))
        let key = Rasterizer().key(for: component, size: Size(32))
        let object = RemoteCacheObject.encode(digest: key.value, png: try image.pngData(compression: .fast), children: [])
        let upload = RemoteStoreUpload(name: RemoteObjectName(key: key), bytes: object)
        let stores = (0..<4).map { _ in RemoteCache(url: server.writable, configuration: configuration(timeout: 5)) }
        let failures = Counter()
        let done = DispatchGroup()
        for store in stores {
            done.enter()
            Thread {
                for _ in 0..<10 where store.put(Array(repeating: upload, count: 4)).contains(where: { $0 != nil }) {
                    failures.increment()
                }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failures.count == 0)
        #expect(try stores[0].get(RemoteObjectName(key: key), maximumBytes: 1 << 20) == object)

        // Two machines drawing the same renders at once, then a third reading them.
        let draws = Counter()
        let machines = try (0..<2).map { _ in try machine(server.writable) }
        for rasterizer in machines {
            done.enter()
            Thread {
                for component in self.components("both", 8, draws: draws) { _ = try? rasterizer.image(for: component, size: Size(8)) }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        for rasterizer in machines { #expect(rasterizer.cache.flushUploads(timeout: 10)) }
        let third = try machine(server.writable)
        for component in components("both", 8, draws: draws) {
            #expect(try third.render(RenderRequest(component, size: Size(8))).origin == .remote)
        }
    }

    @Test func aMissingObjectIsAMissAndTheURLLayoutIsDocumented() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let store = RemoteCache(url: server.writable, configuration: configuration())
        let key = Rasterizer().key(for: Counted(label: "absent", draws: Counter()), size: Size(8))
        #expect(try store.get(RemoteObjectName(key: key), maximumBytes: 1 << 20) == nil)
        #expect(store.objectURL(for: RemoteObjectName(key: key)).absoluteString
                == "\(server.writable.absoluteString)/\(CacheKey.formatVersion)/\(key.digest)")
        var bazel = configuration()
        bazel.layout = .bazelRemote
        let path = RemoteCache(url: server.writable, configuration: bazel).objectURL(for: RemoteObjectName(key: key)).lastPathComponent
        #expect(path.count == 64 && path.hasPrefix(key.digest))
    }

    private func name(_ label: String) -> RemoteObjectName {
        RemoteObjectName(key: Rasterizer().key(for: Counted(label: label, draws: Counter()), size: Size(8)))
    }

    /// `Authorization` goes with every request: a store that asks for it answers 401 without
    /// it (a read-only cache to the tier) and serves and stores objects with it.
    @Test func theAuthorizationHeaderIsSentWithEveryRequest() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let name = name("authorized")
        var withToken = configuration()
        withToken.authorization = "Bearer \(NginxServer.authorizationToken)"
        let authorized = RemoteCache(url: server.authorized, configuration: withToken)
        #expect(authorized.put([RemoteStoreUpload(name: name, bytes: Data("object".utf8))]) == [nil])
        #expect(try authorized.get(name, maximumBytes: 1 << 10) == Data("object".utf8))
        let anonymous = RemoteCache(url: server.authorized, configuration: configuration())
        #expect(throws: RemoteStoreError.forbidden(status: 401)) { try anonymous.get(name, maximumBytes: 1 << 10) }
        #expect(anonymous.put([RemoteStoreUpload(name: name, bytes: Data("forged".utf8))]) == [.forbidden(status: 401)])
    }

    /// HTTPS verifies the server's certificate against the system's authorities: a server whose
    /// certificate nobody vouches for is a transport fault, never a source of objects; plain
    /// HTTP on the same server still works.
    @Test func anHTTPSServerWithAnUntrustedCertificateIsAFault() throws {
        let server = try NginxServer(https: true)
        defer { server.remove() }
        let secureURL = try #require(server.secure)
        let name = name("secure")
        let plain = RemoteCache(url: server.writable, configuration: configuration())
        #expect(plain.put([RemoteStoreUpload(name: name, bytes: Data("object".utf8))]) == [nil])
        #expect(try plain.get(name, maximumBytes: 1 << 10) == Data("object".utf8))
        let secure = RemoteCache(url: secureURL, configuration: configuration(timeout: 5))
        #expect {
            try secure.get(name, maximumBytes: 1 << 10)
        } throws: { error in
            guard case .transport = error as? RemoteStoreError else { return false }
            return true
        }
    }

    /// A body longer than the caller can hold is refused once that is known, and a redirect is
    /// answered as the status it is, never followed.
    @Test func longBodiesAndRedirectsAreFaults() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let store = RemoteCache(url: server.writable, configuration: configuration())
        let long = name("long")
        #expect(store.put([RemoteStoreUpload(name: long, bytes: Data(repeating: 7, count: 100_000))]) == [nil])
        #expect(throws: RemoteStoreError.tooLarge(limit: 1_000)) { try store.get(long, maximumBytes: 1_000) }
        #expect(try store.get(long, maximumBytes: 100_000)?.count == 100_000)
        // A folder where an object would be: nginx answers 301 to the folder's URL with a slash.
        let folder = name("folder")
        try FileManager.default.createDirectory(
            at: server.store.appendingPathComponent("\(folder.formatVersion)/\(folder.digest)"), withIntermediateDirectories: true)
        #expect(throws: RemoteStoreError.status(301)) { try store.get(folder, maximumBytes: 1 << 10) }
    }
}
