public import PlayerState

/// A GStreamer error as it arrives in an ERROR bus message: its GError domain,
/// code and text, and the ``FailureReason`` and ``FailureDetail`` Playhead reports for it.
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

    /// The domain's GQuark string, as `g_quark_to_string` spells it
    /// (`gst-resource-error-quark`); `unknown` for ``other``.
    public var quark: String {
      switch self {
      case .other: "unknown"
      case .core: "gst-core-error-quark"
      case .library: "gst-library-error-quark"
      case .resource: "gst-resource-error-quark"
      case .stream: "gst-stream-error-quark"
      }
    }
  }

  /// The domain.
  public let domain: Domain
  /// The code within the domain (`GstResourceError`, `GstStreamError`…).
  public let code: Int32
  /// GStreamer's message, such as `Resource not found.`.
  public let text: String
  /// The GError domain's quark string as the message carried it, such as
  /// `gst-resource-error-quark` (for ``Domain/other``, the element's own domain).
  public let quark: String

  /// An error.
  /// - Parameters:
  ///   - domain: the GError domain.
  ///   - code: the code within it.
  ///   - text: GStreamer's message.
  ///   - quark: the domain's quark string; empty or omitted: ``Domain/quark``.
  public init(domain: Domain, code: Int32, text: String = "", quark: String = "") {
    self.domain = domain
    self.code = code
    self.text = text
    self.quark = quark.isEmpty ? domain.quark : quark
  }

  /// What Playhead reports as the class:
  ///
  /// | GStreamer | reason |
  /// | --- | --- |
  /// | RESOURCE NOT_FOUND (3) | `notFound` |
  /// | RESOURCE BUSY, OPEN_READ, READ, SEEK, NOT_AUTHORIZED (4, 5, 9, 11, 15) | `network` |
  /// | STREAM NOT_IMPLEMENTED, TYPE_NOT_FOUND, WRONG_TYPE, CODEC_NOT_FOUND, FORMAT, DECRYPT, DECRYPT_NOKEY (3–6, 11–13) | `unsupported` |
  /// | STREAM FAILED, DECODE, DEMUX (1, 7, 9) | `decoding` |
  /// | CORE MISSING_PLUGIN (12) | `unsupported` |
  /// | anything else | `engine(code: domain × 1000 + code)`, e.g. `engine(3014)` |
  ///
  /// A file that is not there is RESOURCE NOT_FOUND; an HTTP source (`souphttpsrc`)
  /// posts 404 as NOT_FOUND, a refused or lost connection as OPEN_READ or READ, 401 and
  /// 403 as NOT_AUTHORIZED (network, as the AVPlayer adapter maps HTTP 401/403); a file
  /// whose type nothing recognizes is STREAM TYPE_NOT_FOUND; a recognized file whose data
  /// is broken is STREAM DECODE, DEMUX or FAILED.
  public var reason: FailureReason {
    switch (domain, code) {
    case (.resource, 3): .notFound
    case (.resource, 4), (.resource, 5), (.resource, 9), (.resource, 11), (.resource, 15):
      .network
    case (.stream, 3...6), (.stream, 11...13): .unsupported
    case (.stream, 1), (.stream, 7), (.stream, 9): .decoding
    case (.core, 12): .unsupported
    default: .engine(code: domain.rawValue &* 1000 &+ code)
    }
  }

  /// The engine's own error, beside the reason: the quark string, the code and the text,
  /// as in `gst-resource-error-quark 3 "Resource not found."`.
  public var detail: FailureDetail {
    FailureDetail(domain: quark, code: Int(code), message: text)
  }

  /// `resource error 3 (Resource not found.)`.
  public var description: String { "\(domain) error \(code) (\(text))" }
}
