#if canImport(Foundation)
  package import AVPlayerEngineCore
  import Foundation

  extension AVErrorDetail {
    /// Copies an error's chain into a value: domain, code, localized description, and
    /// the same for the error under `NSUnderlyingErrorKey`, down to `depth` links
    /// (a guard against a cyclic chain, which `NSError` does not forbid).
    /// - Parameters:
    ///   - error: any error; bridged to `NSError`.
    ///   - depth: the most links to copy.
    package init(_ error: any Error, depth: Int = 8) {
      let error = error as NSError
      let below =
        depth > 1
        ? (error.userInfo[NSUnderlyingErrorKey] as? NSError).map {
          AVErrorDetail($0, depth: depth - 1)
        }
        : nil
      self.init(
        domain: error.domain, code: error.code, message: error.localizedDescription,
        underlying: below)
    }

    /// `error`'s chain, or ``missing`` when AVFoundation gave none.
    package init(orMissing error: (any Error)?) {
      self = error.map { AVErrorDetail($0) } ?? .missing
    }
  }
#endif
