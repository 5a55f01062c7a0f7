import RasterKit
/// A rasterizer given up front, or made by the first worker that needs one.
final class LazyRasterizer: Sendable {
    private let make: @Sendable () throws -> Rasterizer
    private let state: Lock<Result<Rasterizer, any Error>?>

    init(_ rasterizer: Rasterizer) {
        make = { rasterizer }
        state = Lock(.success(rasterizer))
    }

    init(_ make: @escaping @Sendable () throws -> Rasterizer) {
        self.make = make
        state = Lock(nil)
    }

    /// The rasterizer, made now if needed; a failure to make it is remembered, not retried.
    func get() throws -> Rasterizer {
        try state.withLock { state in
            if let state { return state }
            let made = Result { try make() }
            state = made
            return made
        }.get()
    }

    var made: Rasterizer? { state.withLock { try? $0?.get() } }
}
