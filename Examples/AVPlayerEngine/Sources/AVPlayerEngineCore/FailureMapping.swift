package import PlayerState

/// How an AVFoundation error chain becomes the machine's ``FailureReason``.
///
/// The root cause decides: the chain is walked from the outermost error down
/// (`NSUnderlyingErrorKey`), and the *deepest* link that names a reason wins, so an
/// `NSURLErrorDomain -1008` over `CoreMediaErrorDomain -12938` (HTTP 404) is
/// `notFound`, not `network`. Wrappers that name nothing (`-11800` unknown) are
/// skipped. When no link names a reason, a chain that went through one of the HLS
/// delivery wrappers (`-11863` content unavailable, `-11867` no longer playable,
/// `-11866` content not updated) is `network`: WWDC 2017 session 514 ("Error Handling
/// Best Practices for HTTP Live Streaming") lists HTTP 4xx/5xx, TCP/IP, DNS errors and
/// playlist, segment and key timeouts under exactly those codes. Anything else is
/// `engine(code:)` with the root cause's code.
///
/// Where the numbers come from:
/// - `AVFoundationErrorDomain`: `AVError.Code` raw values in AVFoundation's `AVError.h`
///   (cross-checked against Microsoft's .NET `AVFoundation.AVError` enum and a
///   generated Go binding of the iOS SDK).
/// - `NSURLErrorDomain`: `NSURLError.h` (Foundation), stable since iOS 2.
/// - `NSCocoaErrorDomain`: `FoundationErrors.h`; `NSPOSIXErrorDomain`: `errno` on Darwin.
/// - `CoreMediaErrorDomain`: Apple does not publish these. The values are the ones
///   AVPlayer reports in `AVPlayerItemErrorLogEvent` (`errorStatusCode`, with comments
///   such as "HTTP 404: File Not Found"), as collected by developers, for example
///   https://gist.github.com/SoundBlaster/dfcb7d990d80920aa33f5945231aa26a. Only the
///   HTTP ones are mapped; the rest fall through to `network` via their wrapper.
package enum FailureMapping {
  /// The reason to report for an error chain. The one place that decides it.
  /// - Parameter error: the failure's error, outermost first.
  /// - Returns: the reason of the deepest link that names one; else `network` for an
  ///   HLS delivery wrapper; else `engine(code:)` with the root cause's code.
  package static func reason(for error: AVErrorDetail) -> FailureReason {
    let chain = error.chain
    if let named = chain.reversed().lazy.compactMap(reason(naming:)).first { return named }
    if chain.contains(where: isDeliveryWrapper) { return .network }
    return .engine(code: Int32(clamping: chain[chain.count - 1].code))
  }

  /// The engine's own error to carry beside the reason (``FailureDetail``): the link
  /// the reason was decided from (the deepest that names one), else the root cause,
  /// with that link's domain, code and message. So a lost connection (`-11800` over
  /// `NSURLErrorDomain -1009`) carries `NSURLErrorDomain -1009 "The Internet connection
  /// appears to be offline."`, and a decoder failure `AVFoundationErrorDomain -11821`.
  /// - Parameter error: the failure's error, outermost first.
  package static func detail(for error: AVErrorDetail) -> FailureDetail {
    let chain = error.chain
    let link =
      chain.last { reason(naming: $0) != nil } ?? chain[chain.count - 1]
    return FailureDetail(domain: link.domain, code: link.code, message: link.message)
  }

  /// The reason one error names on its own, or nil for a wrapper or an unknown code.
  static func reason(naming error: AVErrorDetail) -> FailureReason? {
    switch error.domain {
    case Domain.avFoundation: avFoundation(error.code)
    case Domain.url: url(error.code)
    case Domain.coreMedia: coreMedia(error.code)
    case Domain.cocoa: [4, 260].contains(error.code) ? .notFound : nil
    case Domain.posix: posix(error.code)
    default: nil
    }
  }

  /// The error domains the mapping knows, spelled as `NSError.domain` spells them.
  enum Domain {
    static let avFoundation = "AVFoundationErrorDomain"
    static let url = "NSURLErrorDomain"
    static let coreMedia = "CoreMediaErrorDomain"
    static let cocoa = "NSCocoaErrorDomain"
    static let posix = "NSPOSIXErrorDomain"
  }

  private static func avFoundation(_ code: Int) -> FailureReason? {
    switch code {
    case -11828,  // fileFormatNotRecognized
      -11833,  // decoderNotFound
      -11864,  // formatUnsupported
      -11848:  // incompatibleAsset: the device cannot play this content
      .unsupported
    case -11821,  // decodeFailed
      -11855,  // undecodableMediaData
      -11829,  // fileFailedToParse: corrupt file
      -11853:  // failedToParse: malformed playlist, key or session data (WWDC17 514)
      .decoding
    case -11850:  // serverIncorrectlyConfigured
      .network
    case -11819:  // mediaServicesWereReset: named, so an OSStatus under it does not win
      .engine(code: -11819)
    default:  // -11800 unknown, the HLS wrappers, anything newer: not a reason by itself
      nil
    }
  }

  private static func url(_ code: Int) -> FailureReason? {
    switch code {
    case -1100,  // fileDoesNotExist (a missing local file: over POSIX ENOENT)
      -1000:  // badURL
      .notFound
    case -1002:  // unsupportedURL: a scheme AVFoundation cannot open
      .unsupported
    default:  // -1001 timedOut, -1003 cannotFindHost, -1004 cannotConnectToHost,
      // -1005 networkConnectionLost, -1009 notConnectedToInternet,
      // -1020 dataNotAllowed, -12xx TLS, …: the fetch failed.
      .network
    }
  }

  private static func coreMedia(_ code: Int) -> FailureReason? {
    switch code {
    case -12938:  // "HTTP 404: File Not Found"
      .notFound
    case -12660,  // "HTTP 403: Forbidden"
      -12937,  // "Authentication Error" (HTTP 401, 407)
      -16840,  // "HTTP 401: Unauthorized"
      -12666,  // "unrecognized http response" (other 4xx and 5xx)
      -12884,  // media file not received in time
      -12889:  // no response for a segment in time
      .network
    default:
      nil
    }
  }

  private static func posix(_ code: Int) -> FailureReason? {
    switch code {
    case 2: .notFound  // ENOENT
    // ENETDOWN, ENETUNREACH, ECONNRESET, ENOTCONN, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH
    case 50, 51, 54, 57, 60, 61, 65: .network
    default: nil
    }
  }

  private static func isDeliveryWrapper(_ error: AVErrorDetail) -> Bool {
    // contentIsUnavailable, noLongerPlayable, contentNotUpdated
    error.domain == Domain.avFoundation && [-11863, -11867, -11866].contains(error.code)
  }
}
