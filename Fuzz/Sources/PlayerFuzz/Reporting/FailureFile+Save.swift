import Foundation

extension FailureFile {
  /// An error saving a failure: the path and the system's reason.
  public struct SaveError: Error, CustomStringConvertible {
    /// The file or directory that could not be written.
    public var path: String
    /// Why, as the system said it.
    public var reason: String
    /// `cannot save the failure to PATH: REASON`.
    public var description: String { "cannot save the failure to \(path): \(reason)" }
  }

  /// Saves `failure` as a text file in `directory` and returns the file's path, so that a
  /// failure of your own player is kept where you say (under your package, such as
  /// `Tests/MyPlayerTests/Failures`), never inside Playhead's tree.
  ///
  /// The directory is created if missing. The file is named after the subject and the
  /// failure's origin (`MyPlayer-seed-42-case-17.txt`, `MyPlayer-exhaustive-3.txt`,
  /// `MyPlayer-given.txt`), with only letters, digits, `-` and `_` kept of the subject's name;
  /// an existing file is never overwritten (`-2`, `-3`, … is added). Read it back with
  /// ``parseCase(_:file:)``.
  /// - Parameters:
  ///   - failure: the failure to save (its minimal case, property and origin).
  ///   - directory: where to save it.
  /// - Returns: the path of the file written.
  /// - Throws: ``SaveError`` when the directory cannot be created or the file written.
  @discardableResult
  public static func save(_ failure: FuzzFailure, in directory: String) throws(SaveError)
    -> String
  {
    let files = FileManager.default
    do {
      try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw SaveError(path: directory, reason: reason(error))
    }
    let stem = fileStem(failure)
    let data = Data(format(failure).utf8)
    var attempt = 1
    while true {
      let name = attempt == 1 ? "\(stem).txt" : "\(stem)-\(attempt).txt"
      let path = (directory as NSString).appendingPathComponent(name)
      do {
        try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        return path
      } catch let error as CocoaError where error.code == .fileWriteFileExists {
        attempt += 1
      } catch {
        throw SaveError(path: path, reason: reason(error))
      }
    }
  }

  /// `SUBJECT-seed-S-case-K`, `SUBJECT-exhaustive-D` or `SUBJECT-given`, with only letters,
  /// digits, `-` and `_` kept of the subject's name (at most 64 of them).
  static func fileStem(_ failure: FuzzFailure) -> String {
    let kept = failure.subject.unicodeScalars.filter {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || $0 == "-" || $0 == "_"
    }.prefix(64)
    let subject = kept.isEmpty ? "failure" : String(String.UnicodeScalarView(kept))
    switch failure.origin {
    case .random(let seed, let index, _): return "\(subject)-seed-\(seed)-case-\(index)"
    case .exhaustive(let depth): return "\(subject)-exhaustive-\(depth)"
    case .given: return "\(subject)-given"
    }
  }

  /// The system's own words for a file error, not a domain and a number.
  private static func reason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError,
      let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    return error.localizedDescription
  }
}
