import Foundation
import PlayerFuzz
import PlayerState
import Testing

/// The oracle refuses negative times as the machine does (issue 23, R10):
/// docs/machine.md, invariant 7, "a position is never negative". A load or a
/// seek from a negative time is refused (`invalidArgument`: nothing sent, the
/// state unchanged) and a negative position report is ignored. The oracle
/// expected `load(A#1, from -1ms)`, so replaying `play(A, from -1ms)` reported
/// "FAILED Player" and FilesFuzzer trapped on a 20-byte input.
@Suite struct NegativeTimeOracleTests {
  static let cases: [String] = [
    "play(A, from -1ms)",
    "queue(A B, from -1ms)",
    "queue(A B, start 2, from -1000ms, paused)",
    "play(A)\nready(A#1)\nseek(-1ms)",
    "queue(A B)\nready(A#1)\njump(2, from -1ms)",
    "queue(A B)\nready(A#1)\njump(1, from -1ms)",
    "queue(A B)\nready(A#1)\nposition(A#1, -5ms)",
    "play(A)\nposition(A#1, -9223372036854775808ms)",
  ]

  @Test(arguments: cases) func playerAgreesWithTheOracle(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  @Test func aNegativeTimeSendsNothingAndChangesNothing() {
    var model = ContractModel()
    var commands: [EngineCommand] = []
    #expect(!model.apply(.play("A", from: .milliseconds(-1)), commands: &commands))
    #expect(!model.apply(.queue([], from: .milliseconds(-1)), commands: &commands))
    #expect(commands.isEmpty)
    #expect(model.kind == .idle && model.entries.isEmpty)
    #expect(model.apply(.play("A"), commands: &commands))
    #expect(model.apply(.ready(Load(item: ItemID(1), token: LoadToken(1))), commands: &commands))
    let count = commands.count
    let load = Load(item: ItemID(1), token: LoadToken(1))
    #expect(!model.apply(.seek(to: .milliseconds(-1)), commands: &commands))
    #expect(!model.apply(.user(.jump(to: 0, from: .milliseconds(-1))), commands: &commands))
    #expect(!model.apply(.position(load, .milliseconds(-5)), commands: &commands))
    #expect(commands.count == count)
    #expect(model.current?.position == 0)
  }

  /// Fuzz/Corpus/files: FilesFuzzer inputs (the first byte picks the reader;
  /// odd: a saved failure). Each must replay on the Player without a failure,
  /// as FilesFuzzer requires.
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/files")

  static let inputs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.sorted()
  }()

  @Test func theCorpusHoldsTheNegativeTimeInputs() {
    #expect(Self.inputs.contains("negative-from.bin"))
  }

  @Test(arguments: inputs) func filesCorpusInputReplays(_ name: String) throws {
    let bytes = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
    let selector = try #require(bytes.first)
    guard selector & 1 == 1 else { return }  // a scenario script: PlayerSimTests run those
    let text = try #require(String(data: bytes.dropFirst(), encoding: .utf8))
    let fuzzCase = try FailureFile.parseCase(text, file: name)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }
}
