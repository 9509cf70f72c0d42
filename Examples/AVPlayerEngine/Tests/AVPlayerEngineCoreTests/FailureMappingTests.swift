import AVPlayerEngineCore
import PlayerState
import Testing

/// A named error chain and the reason it must map to.
struct Mapping: CustomTestStringConvertible, Sendable {
  let name: String
  let error: AVErrorDetail
  let reason: FailureReason

  var testDescription: String { name }
}

/// AVFoundation error chains to the machine's failure reasons: the root cause decides.
@Suite struct FailureMappingTests {
  static let chains: [Mapping] = [
    Mapping(name: "HLS 404 under contentIsUnavailable", error: Errors.hls404, reason: .notFound),
    Mapping(name: "offline under unknown", error: Errors.offline, reason: .network),
    Mapping(name: "a missing local file", error: Errors.missingFile, reason: .notFound),
    Mapping(
      name: "HLS 403 under noLongerPlayable",
      error: Errors.av(-11867, "Playback Stopped", over: Errors.coreMedia(-12660, "HTTP 403")),
      reason: .network),
    Mapping(
      name: "404 under resourceUnavailable: the deepest named reason wins",
      error: Errors.url(-1008, "resource unavailable", over: Errors.coreMedia(-12938, "HTTP 404")),
      reason: .notFound),
    Mapping(
      name: "an unnamed CoreMedia code under noLongerPlayable is a delivery failure",
      error: Errors.av(
        -11867, "Playback Stopped",
        over: Errors.coreMedia(-12880, "Can not proceed after removing variants")),
      reason: .network),
    Mapping(
      name: "contentNotUpdated alone (a live playlist not refreshed in time)",
      error: Errors.av(-11866, "Content not updated"), reason: .network),
    Mapping(
      name: "timed out", error: Errors.url(-1001, "The request timed out."), reason: .network),
    Mapping(
      name: "cannot find host", error: Errors.url(-1003, "A server with the specified hostname"),
      reason: .network),
    Mapping(
      name: "cellular data not allowed", error: Errors.url(-1020, "data not allowed"),
      reason: .network),
    Mapping(
      name: "unsupported URL scheme", error: Errors.url(-1002, "unsupported URL"),
      reason: .unsupported),
    Mapping(
      name: "file format not recognized",
      error: Errors.av(-11828, "Cannot Open", over: Errors.osStatus(-12847)),
      reason: .unsupported),
    Mapping(
      name: "format unsupported", error: Errors.av(-11864, "Unsupported"), reason: .unsupported),
    Mapping(
      name: "decoder not found", error: Errors.av(-11833, "Cannot Decode"), reason: .unsupported),
    Mapping(
      name: "file failed to parse", error: Errors.av(-11829, "Cannot Open"), reason: .decoding),
    Mapping(
      name: "playlist failed to parse",
      error: Errors.av(
        -11853, "Cannot Parse", over: Errors.coreMedia(-12646, "playlist parse error")),
      reason: .decoding),
    Mapping(
      name: "undecodable media data", error: Errors.av(-11855, "Cannot Decode"),
      reason: .decoding),
    Mapping(name: "decode failed", error: Errors.av(-11821, "Cannot Decode"), reason: .decoding),
    Mapping(
      name: "server incorrectly configured", error: Errors.av(-11850, "Operation Stopped"),
      reason: .network),
    Mapping(
      name: "media services were reset, over an OSStatus", error: Errors.servicesReset,
      reason: .engine(code: -11819)),
    Mapping(
      name: "unknown over an unnamed OSStatus: the root cause's code",
      error: Errors.av(
        -11800, "The operation could not be completed", over: Errors.osStatus(-16170)),
      reason: .engine(code: -16170)),
    Mapping(
      name: "Cocoa no such file",
      error: AVErrorDetail(domain: "NSCocoaErrorDomain", code: 260, message: "no such file"),
      reason: .notFound),
    Mapping(
      name: "POSIX connection refused", error: Errors.posix(61, "Connection refused"),
      reason: .network),
    // No AVFoundation, URL or CoreMedia error is known to mean "behind the live window"
    // (see FailureMapping): a live playlist the server stopped refreshing is the server's
    // failure to deliver, reported as such, not `behindLiveWindow`.
    Mapping(
      name: "a live playlist not updated in time is a delivery failure, not behindLiveWindow",
      error: Errors.av(
        -11866, "Content Not Updated",
        over: Errors.coreMedia(
          -12888, "Playlist File unchanged for longer than 1.5 * target duration")),
      reason: .network),
    Mapping(
      name: "a code too large for Int32 is clamped",
      error: AVErrorDetail(domain: "SomeDomain", code: 1 << 40, message: "huge"),
      reason: .engine(code: .max)),
  ]

  @Test(arguments: chains)
  func reason(_ mapping: Mapping) {
    #expect(FailureMapping.reason(for: mapping.error) == mapping.reason)
  }

  /// The detail is the link the reason was decided from, else the root cause.
  static let details: [(AVErrorDetail, String)] = [
    (Errors.offline, #"NSURLErrorDomain -1009 "The Internet connection appears to be offline.""#),
    (Errors.hls404, #"CoreMediaErrorDomain -12938 "HTTP 404: File Not Found""#),
    (Errors.missingFile, #"NSPOSIXErrorDomain 2 "No such file or directory""#),
    (Errors.av(-11821, "Cannot Decode"), #"AVFoundationErrorDomain -11821 "Cannot Decode""#),
    (Errors.servicesReset, #"AVFoundationErrorDomain -11819 "Cannot Complete Action""#),
    // No link names a reason: the root cause.
    (
      Errors.av(-11867, "Playback Stopped", over: Errors.coreMedia(-12880, "variants")),
      #"CoreMediaErrorDomain -12880 "variants""#
    ),
    (
      Errors.av(-11800, "The operation could not be completed", over: Errors.osStatus(-16170)),
      #"NSOSStatusErrorDomain -16170 "(null)""#
    ),
    (.missing, #"Playhead.AVPlayerEngine 0 "AVFoundation gave no error""#),
  ]

  @Test(arguments: details)
  func detail(_ error: AVErrorDetail, _ expected: String) {
    #expect(FailureMapping.detail(for: error).description == expected)
  }

  @Test func aFailedSignalReportsTheReasonAndTheDetail() {
    let report = ItemSignal<SeekID>.failed(Errors.offline).report(about: Load(1, 1))
    #expect(
      report
        == .failed(
          Load(1, 1), .network,
          detail: FailureDetail(
            domain: "NSURLErrorDomain", code: -1009,
            message: "The Internet connection appears to be offline.")))
    #expect(
      ItemSignal<SeekID>.pausedBySystem.report(about: Load(1, 1)) == .pausedBySystem(Load(1, 1)))
  }

  @Test func chainAndDescriptionKeepEveryLink() {
    #expect(Errors.hls404.chain.map(\.code) == [-11863, -12938])
    #expect(Errors.hls404.underlying?.domain == "CoreMediaErrorDomain")
    #expect(
      Errors.hls404.description
        == #"AVFoundationErrorDomain -11863 "Cannot Open" <- CoreMediaErrorDomain -12938 "HTTP 404: File Not Found""#
    )
  }
}
