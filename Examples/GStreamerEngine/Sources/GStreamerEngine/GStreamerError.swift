public import PlayerState

/// A GStreamer error as it arrives in an ERROR bus message: its GError domain,
/// code and text, and the ``FailureReason`` Playhead reports for it.
public struct GStreamerError: Hashable, Sendable, CustomStringConvertible {
  /// The GError domains GStreamer posts errors in.
  public enum Domain: Int32, Hashable, Sendable {
    /// Not one of GStreamer's four domains.
    case other = 0
    /// `GST_CORE_ERROR`: the pipeline itself (missing plugin, negotiation).
    case core = 1
    /// `GST_LIBRARY_ERROR`: a library an element uses.
    case library = 2
    /// `GST_RESOURCE_ERROR`: reading the media (file, network).
    case resource = 3
    /// `GST_STREAM_ERROR`: the media's format and data.
    case stream = 4
  }

  /// The domain.
  public let domain: Domain
  /// The code within the domain (`GstResourceError`, `GstStreamError`…).
  public let code: Int32
  /// GStreamer's message, such as `Resource not found.`.
  public let text: String

  /// An error.
  /// - Parameters:
  ///   - domain: the GError domain.
  ///   - code: the code within it.
  ///   - text: GStreamer's message.
  public init(domain: Domain, code: Int32, text: String = "") {
    self.domain = domain
    self.code = code
    self.text = text
  }

  /// What Playhead reports:
  ///
  /// | GStreamer | reason |
  /// | --- | --- |
  /// | RESOURCE NOT_FOUND (3) | `notFound` |
  /// | RESOURCE BUSY, OPEN_READ, READ, SEEK (4, 5, 9, 11) | `network` |
  /// | STREAM NOT_IMPLEMENTED, TYPE_NOT_FOUND, WRONG_TYPE, CODEC_NOT_FOUND, FORMAT, DECRYPT, DECRYPT_NOKEY (3–6, 11–13) | `unsupported` |
  /// | STREAM FAILED, DECODE, DEMUX (1, 7, 9) | `decoding` |
  /// | CORE MISSING_PLUGIN (12) | `unsupported` |
  /// | anything else | `engine(code: domain × 1000 + code)`, e.g. `engine(3015)` |
  public var reason: FailureReason {
    switch (domain, code) {
    case (.resource, 3): .notFound
    case (.resource, 4), (.resource, 5), (.resource, 9), (.resource, 11): .network
    case (.stream, 3...6), (.stream, 11...13): .unsupported
    case (.stream, 1), (.stream, 7), (.stream, 9): .decoding
    case (.core, 12): .unsupported
    default: .engine(code: domain.rawValue &* 1000 &+ code)
    }
  }

  /// `resource error 3 (Resource not found.)`.
  public var description: String { "\(domain) error \(code) (\(text))" }
}
