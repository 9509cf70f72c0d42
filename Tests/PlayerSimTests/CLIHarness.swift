import Foundation

/// Runs the built `player-sim` binary and captures what it wrote.
enum CLI {
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] {
      stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// The package root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The binary: next to the test executable (the products directory), else
  /// next to an `.xctest` bundle, else in the package's default `.build`.
  static let binary: URL? = {
    var candidates: [URL] = []
    if let first = CommandLine.arguments.first {
      candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(bundle.bundleURL.deletingLastPathComponent())
    }
    candidates.append(Bundle.main.bundleURL)
    candidates.append(root.appendingPathComponent(".build/debug"))
    return candidates.map { $0.appendingPathComponent("player-sim") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  struct MissingBinary: Error, CustomStringConvertible {
    var description: String { "player-sim binary not found next to the tests or in .build/debug" }
  }

  /// Runs `player-sim arguments…`, feeding `input` on standard input.
  static func run(_ arguments: [String], input: String? = nil) throws -> Output {
    guard let binary else { throw MissingBinary() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "player-sim-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("out")
    let errURL = directory.appendingPathComponent("err")
    let inURL = directory.appendingPathComponent("in")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((input ?? "").utf8))

    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = root
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let stdin = try FileHandle(forReadingFrom: inURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    try stdin.close()
    return Output(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// Writes a scratch file and returns its path.
  static func scratchFile(_ name: String, _ data: Data) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "player-sim-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url.path
  }
}
