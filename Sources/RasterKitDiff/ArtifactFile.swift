import Foundation

/// Reads the files of golden failure artifacts for the report, which embeds them in a page
/// others may open: an artifacts folder is written by test runs and may hold anything, so a
/// file is used only when it is itself a regular file (no symbolic link is followed), within
/// the input size limit, and — for images — a PNG that decodes whole within the pixel limits.
/// The page embeds a PNG encoded anew from the decoded pixels, never the file's bytes: a file
/// that is a PNG header followed by anything (`/etc/passwd`), or a valid PNG with bytes
/// appended or hidden in ancillary chunks, would otherwise carry those bytes into the page. A
/// file that is refused says why, and the report shows that instead of the image.
///
/// A hard link is not refused: it is a regular file, and its link count says nothing about where
/// the other names are. Re-encoding is what bounds it — whatever file it names, only pixels of
/// a decodable PNG within the limits reach the page.
enum ArtifactFile {
    /// What reading one artifact gave.
    enum Outcome {
        /// There is no such file.
        case missing
        /// The file is there but is not used, for this reason.
        case refused(String)
        /// The file's bytes.
        case contents(Data)
    }

    /// Whether `path` is a folder itself, not a symbolic link to one.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The bytes of the regular file at `path`, read without following a symbolic link.
    static func read(_ path: String, limit: Int = ResourceLimits.default.maximumInputBytes) -> Outcome {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .missing : .refused(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: return .refused("it is a symbolic link")
        default: return .refused("it is not a regular file")
        }
        // O_NOFOLLOW again at open: the file may have been swapped for a link since lstat.
        do { return .contents(try FileReader.read(path, limit: limit, followingSymbolicLinks: false)) } catch {
            return .refused(error.reason)
        }
    }

    /// A PNG of the pixels of the PNG at `path`, encoded anew, refused unless the file decodes
    /// whole as a PNG within the pixel limits.
    static func png(_ path: String, limits: ResourceLimits = .default) -> Outcome {
        let outcome = read(path, limit: limits.maximumInputBytes)
        guard case .contents(let data) = outcome else { return outcome }
        do {
            // The header first: an image over the limits is refused with its size, undecoded.
            let header = try PNGHeader(data)
            guard header.width <= limits.pixels.maximumSide, header.height <= limits.pixels.maximumSide,
                  header.width * header.height <= limits.pixels.maximumPixelCount else {
                return .refused("its \(header.width)×\(header.height) pixels are over the limits")
            }
        } catch {
            return .refused("it is not a usable PNG (\(error))")
        }
        let image: RasterImage
        do { image = try RasterImage(pngData: data, resourceLimits: limits) } catch {
            return .refused("it does not decode as a PNG (\(error))")
        }
        do { return .contents(try image.pngData()) } catch {
            return .refused("it cannot be encoded again (\(error))")
        }
    }
}
