import Foundation
import Testing

/// Saved failures whose actions are few but whose media are many (issue 23, R4):
/// `fuzz --replay` is bounded by the file's media as well as its actions, and its
/// memory and output grow with the file, not with its rows times its longest row.
@Suite struct ReplayBoundsTests {
  /// One action holding a whole queue, then thousands of short ones: every row was
  /// padded to the first one's width (2,000 media: 16 MB printed, about 60 MB held).
  static let longQueueThenShortActions =
    "queue(" + Array(repeating: "A", count: 2_000).joined(separator: " ") + ")\n"
    + String(repeating: "pause\nresume\n", count: 2_000)

  @Test func aLongActionDoesNotWidenEveryRow() throws {
    let path = try CLI.scratchFile("long-queue.txt", Data(Self.longQueueThenShortActions.utf8))
    let output = try CLI.run(["fuzz", "--replay", path])
    #expect(output.status == 0, "\(output.stderr.prefix(300))")
    let input = Self.longQueueThenShortActions.utf8.count
    // Rows are their own texts: the file once (the long row), then short rows.
    #expect(output.stdout.utf8.count < 2 * input + 1_000_000, "\(output.stdout.utf8.count) bytes")
    let rows = output.lines.filter { $0.hasPrefix("  ") }
    #expect(rows.count == 4_002)  // and the ready the end of the case sends
    #expect(rows.dropFirst().allSatisfy { $0.utf8.count < 120 })
    // The short rows still line up with each other.
    let arrows = Set(rows.dropFirst().map { $0.range(of: "->")?.lowerBound.utf16Offset(in: $0) })
    #expect(arrows.count == 1)
  }

  @Test(.enabled(if: PeakMemory.isSupported))
  func aLongActionCostsMemoryInProportionToTheFile() throws {
    let path = try CLI.scratchFile("long-queue.txt", Data(Self.longQueueThenShortActions.utf8))
    let measured = try PeakMemory.run(["fuzz", "--replay", path])
    let baseline = try PeakMemory.run([
      "run", "--quiet", try CLI.scratchFile("small.play", Data("media A\n".utf8)),
    ])
    #expect(measured.status == 0)
    let extra = measured.peakBytes - baseline.peakBytes
    let bound = 32 * Self.longQueueThenShortActions.utf8.count + 8 * 1024 * 1024
    #expect(extra <= bound, "\(extra) bytes beyond a one-line script")
  }

  @Test func theMediaOfAFileAreBounded() throws {
    // Queues of 5, replaced each time: 10,005 media in 2,001 lines.
    let text = String(repeating: "queue(A B C D E)\n", count: 2_001)
    let path = try CLI.scratchFile("many-media.txt", Data(text.utf8))
    let output = try CLI.run(["fuzz", "--replay", path])
    #expect(output.status == 2)
    // Media 10,001 of the file is the last line's first name.
    #expect(
      output.stderr
        == "\(path):2001:7: error: more than 10000 media in the file; expected a saved (minimal) case\n"
    )
    #expect(output.stdout == "")
    // 10,000 are fine.
    let fine = try CLI.scratchFile(
      "media-10000.txt", Data(String(repeating: "queue(A B C D E)\n", count: 2_000).utf8))
    #expect(try CLI.run(["fuzz", "--replay", fine, "--quiet"]).status == 0)
  }

  @Test func theQueueOfAFileIsBounded() throws {
    let long = "queue(" + Array(repeating: "A", count: 2_001).joined(separator: " ") + ")\n"
    let path = try CLI.scratchFile("long-queue.txt", Data(long.utf8))
    let output = try CLI.run(["fuzz", "--replay", path])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "\(path):1:1: error: a queue of 2001 entries, more than 2000; expected a saved (minimal) case\n"
    )
    // Grown by appends: the line that passes the limit.
    let grown = try CLI.scratchFile(
      "appends.txt", Data(String(repeating: "append(A B C D)\n", count: 501).utf8))
    let appended = try CLI.run(["fuzz", "--replay", grown])
    #expect(appended.status == 2)
    #expect(appended.stderr.hasPrefix("\(grown):501:1: error: a queue of 2004 entries"))
  }

  @Test func aMillionMediaStopAtTheLimit() throws {
    // The parser reads the first 10,001 names of the line, not the million.
    let text = "queue(" + Array(repeating: "A", count: 1_000_000).joined(separator: " ") + ")\n"
    let path = try CLI.scratchFile("million.txt", Data(text.utf8))
    let output = try CLI.run(["fuzz", "--replay", path])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("\(path):1:20007: error: more than 10000 media in the file"))
  }

  @Test func aLongMediaNameIsRefused() throws {
    let name = String(repeating: "N", count: 65)
    let text = "queue(A \(name))\nready(A#1)\n"
    let path = try CLI.scratchFile("long-name.txt", Data(text.utf8))
    let output = try CLI.run(["fuzz", "--replay", path])
    #expect(output.status == 2)
    #expect(
      output.stderr.hasPrefix(
        "\(path):1:9: error: a media name longer than 64 bytes; expected a short name such as A"))
    // 64 bytes is fine.
    let fine = try CLI.scratchFile(
      "name-64.txt", Data("queue(A \(name.dropLast()))\nready(A#1)\n".utf8))
    #expect(try CLI.run(["fuzz", "--replay", fine]).status == 0)
  }
}
