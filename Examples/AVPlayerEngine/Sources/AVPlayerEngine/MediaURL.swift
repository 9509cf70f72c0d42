#if canImport(Foundation)
  package import Foundation

  /// How a media id becomes the URL an `AVPlayerItem` is made from.
  package enum MediaURL {
    /// A URL for `media`: as written when it has a scheme (`https://…`, `file:///…`),
    /// otherwise a file path.
    /// - Parameter media: the caller's media id.
    /// - Returns: nil when `media` has a scheme but is not a URL (before iOS 17,
    ///   `URL(string:)` refuses characters such as spaces; since iOS 17 it
    ///   percent-encodes them, so a bad URL then fails in AVFoundation instead, as
    ///   `NSURLErrorDomain`).
    package static func url(for media: String) -> URL? {
      guard !media.isEmpty else { return nil }
      if media.contains("://") || media.hasPrefix("file:") { return URL(string: media) }
      return URL(fileURLWithPath: media)
    }
  }
#endif
