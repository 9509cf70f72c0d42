public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads scenario scripts from files or standard input, refusing anything
/// that is not UTF-8 text of at most 10 MB with a positioned ``ScenarioError``.
/// A UTF-8 byte-order mark at the start is accepted (and takes no column).
///
/// ```swift
/// let text = try ScenarioFile.read("Examples/scenarios/late-ready-after-stop.play")
/// let scenario = try ScenarioParser.parse(text, file: "late-ready-after-stop.play")
/// ```
public enum ScenarioFile {
  /// The largest script accepted: 10 MB.
  public static let maximumBytes = 10 * 1024 * 1024

  /// Reads a script.
  /// - Parameter path: a file path, or `-` for standard input.
  /// - Returns: the script's text.
  /// - Throws: ``ScenarioError`` at `path:1:1` if the file is missing, a
  ///   directory, unreadable or too large; at the offending byte's line and
  ///   column if it holds a NUL byte or invalid UTF-8.
  public static func read(_ path: String) throws(ScenarioError) -> String {
    let name = path == "-" ? "<stdin>" : path
    let data: Data
    if path == "-" {
      data = try readStandardInput(name: name)
    } else {
      data = try readFile(path)
    }
    return try decode(data, file: name)
  }

  /// Decodes bytes as a UTF-8 script.
  /// - Parameters:
  ///   - data: the bytes.
  ///   - file: the name for messages.
  /// - Throws: ``ScenarioError`` at the first NUL byte or invalid UTF-8 sequence.
  public static func decode(_ data: Data, file: String) throws(ScenarioError) -> String {
    guard data.count <= maximumBytes else { throw tooLarge(data.count, file: file) }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = data.makeIterator()
    var line = 1
    var column = 1
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value == 0 {
          throw ScenarioError(
            file: file, line: line, column: column, found: "a NUL byte at byte \(offset)",
            expected: "a text file")
        }
        offset += encoded.count
        if offset == 3, scalar == "\u{FEFF}" { continue }  // a byte-order mark takes no column
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .error(let length):
        let byte = data[data.index(data.startIndex, offsetBy: offset)]
        let hex = String(byte, radix: 16, uppercase: true)
        throw ScenarioError(
          file: file, line: line, column: column,
          found:
            "invalid UTF-8 (byte 0x\(hex.count == 1 ? "0" : "")\(hex) at byte \(offset), \(length) bad)",
          expected: "a UTF-8 text file")
      case .emptyInput:
        return String(decoding: data, as: UTF8.self)
      }
    }
  }

  private static func readFile(_ path: String) throws(ScenarioError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ScenarioError(
        file: path, line: 1, column: 1, found: "no such file", expected: "a readable scenario file")
    }
    if isDirectory.boolValue {
      throw ScenarioError(
        file: path, line: 1, column: 1, found: "a directory", expected: "a scenario file")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    if size > maximumBytes { throw tooLarge(size, file: path) }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ScenarioError(
        file: path, line: 1, column: 1, found: "a file that cannot be opened (permission denied?)",
        expected: "a readable scenario file")
    }
    defer { try? handle.close() }
    return try readAll(handle, name: path)
  }

  private static func readStandardInput(name: String) throws(ScenarioError) -> Data {
    // Say what standard input is, not Foundation's "error 256".
    var status = stat()
    if fstat(STDIN_FILENO, &status) != 0 {
      throw ScenarioError(
        file: name, line: 1, column: 1, found: "standard input is closed",
        expected: "a scenario on standard input, or a file path instead of -")
    }
    if status.st_mode & S_IFMT == S_IFDIR {
      throw ScenarioError(
        file: name, line: 1, column: 1, found: "a directory on standard input",
        expected: "a scenario file")
    }
    return try readAll(FileHandle.standardInput, name: name)
  }

  /// Reads until the end, but never more than one byte past the limit.
  private static func readAll(_ handle: FileHandle, name: String) throws(ScenarioError) -> Data {
    var data = Data()
    while true {
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 20)
      } catch {
        throw ScenarioError(
          file: name, line: 1, column: 1, found: "a read error (\(readError(error)))",
          expected: "a readable scenario file")
      }
      guard let chunk, !chunk.isEmpty else { return data }
      data.append(chunk)
      if data.count > maximumBytes { throw tooLarge(data.count, file: name, atLeast: true) }
    }
  }

  /// The system's reason for a failed read (`Is a directory`, `Input/output
  /// error`) when Foundation gives one, rather than its generic "error 256".
  private static func readError(_ error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    return error.localizedDescription
  }

  private static func tooLarge(_ size: Int, file: String, atLeast: Bool = false) -> ScenarioError {
    ScenarioError(
      file: file, line: 1, column: 1,
      found: "a file of \(atLeast ? "more than " : "")\(atLeast ? maximumBytes : size) bytes",
      expected: "at most 10 MB (\(maximumBytes) bytes)")
  }
}
