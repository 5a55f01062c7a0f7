import Foundation
import RasterKit

extension RemoteOptions {
    /// The remote cache a locked golden's PNG goes to when it is accepted: `--remote-cache`, else
    /// the one the check used (`recorded`, from its artifacts), else `RASTERKIT_REMOTE_CACHE`;
    /// nil when there is none or the address is not http(s).
    package func goldenRemote(recorded: String?) -> GoldenRemote? {
        let candidates = [remoteCache, recorded, Self.variable].compactMap { $0?.isEmpty == false ? $0 : nil }
        guard let text = candidates.first, let url = URL(string: text),
              ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
              let store = makeStore(at: url) else { return nil }
        return GoldenRemote(store: store, url: text, signingKey: Self.signingKey)
    }
}
