#if canImport(Foundation)
  import AVPlayerEngine
  import AVPlayerEngineCore
  import Foundation
  import Testing

  /// The shell's Foundation-only conversions, which build on Linux too.
  @Suite struct ShellValueTests {
    @Test func anNSErrorChainBecomesAValue() {
      let root = NSError(
        domain: "CoreMediaErrorDomain", code: -12938,
        userInfo: [NSLocalizedDescriptionKey: "HTTP 404: File Not Found"])
      let error = NSError(
        domain: "AVFoundationErrorDomain", code: -11863,
        userInfo: [NSLocalizedDescriptionKey: "Cannot Open", NSUnderlyingErrorKey: root])
      #expect(AVErrorDetail(error) == Errors.hls404)
      #expect(FailureMapping.reason(for: AVErrorDetail(error)) == .notFound)
    }

    @Test func aDeepChainIsCutAtItsDepth() {
      var error = NSError(domain: "D", code: 0)
      for code in 1...20 {
        error = NSError(domain: "D", code: code, userInfo: [NSUnderlyingErrorKey: error])
      }
      #expect(AVErrorDetail(error).chain.map(\.code) == [20, 19, 18, 17, 16, 15, 14, 13])
    }

    @Test func noErrorIsMissing() {
      #expect(AVErrorDetail(orMissing: nil) == .missing)
    }

    @Test func mediaIDsBecomeURLs() {
      #expect(MediaURL.url(for: "/missing.wav")?.isFileURL == true)
      #expect(MediaURL.url(for: "/missing.wav")?.path == "/missing.wav")
      #expect(MediaURL.url(for: "https://example.com/a.m3u8")?.isFileURL == false)
      #expect(MediaURL.url(for: "file:///tmp/tone.wav")?.path == "/tmp/tone.wav")
      #expect(MediaURL.url(for: "") == nil)
    }
  }
#endif
