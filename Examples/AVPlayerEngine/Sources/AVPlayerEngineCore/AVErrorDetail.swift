/// An `NSError` as a value: its domain, code and message, and the error under its
/// `NSUnderlyingErrorKey`, all the way down.
///
/// AVFoundation wraps the useful error: an HLS 404 arrives as
/// `AVFoundationErrorDomain -11863` (content is unavailable) over
/// `CoreMediaErrorDomain -12938` (HTTP 404), a lost connection as `-11800` (unknown)
/// over `NSURLErrorDomain -1009`. The shell copies the whole chain into this value on
/// the main actor, so the core can decide on it without Foundation and the tests can
/// write one out literally.
///
/// ```swift
/// let error = AVErrorDetail(
///   domain: "AVFoundationErrorDomain", code: -11863, message: "Cannot Open",
///   underlying: AVErrorDetail(domain: "CoreMediaErrorDomain", code: -12938, message: "HTTP 404"))
/// error.chain.map(\.code)  // [-11863, -12938]
/// ```
package struct AVErrorDetail: Hashable, Sendable, CustomStringConvertible {
  /// The error's domain, as in `NSURLErrorDomain`.
  package let domain: String
  /// The error's code in its domain.
  package let code: Int
  /// The error's localized description (or debug description), for logs.
  package let message: String
  // An array, not an optional: a struct cannot hold itself inline. It holds at most one.
  private let below: [AVErrorDetail]

  /// An error and, optionally, the error under it.
  package init(domain: String, code: Int, message: String, underlying: AVErrorDetail? = nil) {
    self.domain = domain
    self.code = code
    self.message = message
    below = underlying.map { [$0] } ?? []
  }

  /// The error under this one (`NSUnderlyingErrorKey`), if any.
  package var underlying: AVErrorDetail? { below.first }

  /// This error, then the one under it, and so on down to the root cause.
  package var chain: [AVErrorDetail] {
    var links = [self]
    while let next = links[links.count - 1].underlying { links.append(next) }
    return links
  }

  /// What the shell reports when AVFoundation signalled a failure without an error
  /// (the documentation promises one; this keeps a broken promise visible).
  package static let missing = AVErrorDetail(
    domain: "Playhead.AVPlayerEngine", code: 0, message: "AVFoundation gave no error")

  /// The chain, outermost first: `AVFoundationErrorDomain -11800 "…" <- NSURLErrorDomain -1009 "…"`.
  package var description: String {
    chain.map { "\($0.domain) \($0.code) \"\($0.message)\"" }.joined(separator: " <- ")
  }
}
