import Foundation
import Testing

/// Every install line must resolve (issue 23; review 2026-12-06, item 1): the README said
/// `.package(url: …, from: "0.2.0")` while no tag existed, so SwiftPM found no
/// version. `.ci/install-line` reads the snippet and fails on a `from:` (or
/// `exact:`) version that `git tag` does not have.
/// Whether the tests run in a git checkout (the check reads its tags).
let inGitCheckout = FileManager.default.fileExists(
  atPath: CLI.root.appendingPathComponent(".git").path)

@Suite(.enabled(if: inGitCheckout)) struct InstallLineTests {
  static func check(_ files: [String] = []) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [CLI.root.appendingPathComponent(".ci/install-line").path] + files
    process.currentDirectoryURL = CLI.root
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func everyInstallLineResolves() throws {
    let result = try Self.check()
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Without a file, every tracked Markdown file that shows a `.package(url:` line is checked:
  /// the DocC *Getting started* said `from: "0.2.0"` while only README.md was (review
  /// 2026-12-06, item 1).
  @Test func theDefaultChecksTheDocCArticlesToo() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [CLI.root.appendingPathComponent(".ci/install-line").path]
    process.currentDirectoryURL = CLI.root
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(text.contains("README.md"), "\(text)")
    #expect(text.contains("Sources/PlayerEngine/PlayerEngine.docc/GettingStarted.md"), "\(text)")
  }

  @Test func aVersionWithNoTagFails() throws {
    let snippet = """
      dependencies: [
        .package(url: "https://github.com/OWNER/playhead.git", from: "0.0.0-never-tagged")
      ],
      """
    let path = try CLI.scratchFile("README.md", Data(snippet.utf8))
    let result = try Self.check([path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(path):2 says a version with no git tag"), "\(result.stderr)")
    #expect(result.stderr.contains("use branch: \"main\" until 0.0.0-never-tagged is tagged"))
  }

  @Test func branchAndRevisionDependenciesPass() throws {
    let snippet = """
      .package(url: "https://github.com/OWNER/playhead.git", branch: "main")
      .package(url: "https://github.com/OWNER/playhead.git", revision: "831613f")
      """
    let path = try CLI.scratchFile("README.md", Data(snippet.utf8))
    #expect(try Self.check([path]).status == 0)
  }

  @Test func aFileWithoutAnInstallLineFails() throws {
    let path = try CLI.scratchFile("README.md", Data("# nothing to install\n".utf8))
    #expect(try Self.check([path]).status == 1)
  }
}
