import Foundation
import PlayerFuzz
import PlayerState
import Testing

@Suite struct CoverageTests {
  typealias Variant = FuzzCoverage.Variant

  /// The contract model after `events`, on an engine that does not preload.
  static func model(_ events: [PlaybackEvent]) -> ContractModel {
    var model = ContractModel()
    var commands: [EngineCommand] = []
    for event in events { model.apply(event, commands: &commands) }
    return model
  }

  @Test func identitiesAreClassifiedRelativeToWhatWasIssued() {
    let one = Self.model([.play("A")])
    #expect(Variant.identity(of: Load(1, 1), in: one) == .current)
    #expect(Variant.identity(of: Load(2, 2), in: one) == .upcoming)
    #expect(Variant.identity(of: Load(1, 3), in: one) == .neverIssued)
    #expect(Variant.identity(of: Load(1, 0), in: one) == .neverIssued)
    #expect(Variant.identity(of: Load(2, 1), in: one) == .wrongItem)
    // Two switches later: A#1 is older, B#2 the one just before, C#3 current.
    let three = Self.model([.play("A"), .play("B"), .play("C")])
    #expect(Variant.identity(of: Load(3, 3), in: three) == .current)
    #expect(Variant.identity(of: Load(2, 2), in: three) == .previous)
    #expect(Variant.identity(of: Load(1, 1), in: three) == .older)
  }

  @Test func aDroppedPreloadIsItsOwnVariant() throws {
    var model = ContractModel(canPreload: true)
    var commands: [EngineCommand] = []
    for event: PlaybackEvent in [.queue(["A", "B"]), .ready(Load(1, 1)), .user(.remove(at: 1))] {
      model.apply(event, commands: &commands)
    }
    let dropped = try #require(model.dropped)
    #expect(dropped == Load(2, 2))
    #expect(Variant.identity(of: Load(2, 2), in: model) == .dropped)
  }

  @Test func aFailureReasonNeverSentIsAGapUntilItIsSent() {
    var runner = CaseRunner(.player)
    #expect(runner.perform(.send(.play("A"))) == nil)
    #expect(runner.perform(.send(.failed(Load(1, 1), .network))) == nil)
    let gap = FuzzCoverage.Gap(kind: .buffering, event: .failed, variant: .unsupported)
    // The run was buffering, where `unsupported` could have been sent, and never was.
    #expect(runner.coverage.unsent.contains(gap))
    #expect(!runner.coverage.isFull)
    #expect(runner.coverage.hits(.buffering, .failed, .network) == 1)
    #expect(runner.coverage.hits(.buffering, .failed, .current) == 1)

    var other = CaseRunner(.player)
    #expect(other.perform(.send(.play("A"))) == nil)
    #expect(other.perform(.send(.failed(Load(1, 1), .unsupported))) == nil)
    #expect(!other.coverage.unsent.contains(gap))
    // Merged, the two runs sent both.
    runner.coverage.merge(other.coverage)
    #expect(runner.coverage.hits(.buffering, .failed, .unsupported) == 1)
    #expect(!runner.coverage.unsent.contains(gap))
  }

  @Test func requireFullCoverageFailsWhenAVariantWasNeverSent() {
    // 20 cases cannot send everything: the run fails on coverage, not on a property.
    let result = Fuzzer.run(
      .player, FuzzConfiguration(seed: 1, budget: .cases(20), requireFullCoverage: true))
    #expect(result.failure == nil)
    #expect(!result.coverage.unsent.isEmpty)
    #expect(!result.passed)
    #expect(result.description.contains("FAILED: never sent although available"))
  }

  @Test func theRandomRunsSendEveryVariantOfEveryReport() {
    let result = Fuzzer.run(.player, FuzzConfiguration(seed: 1, budget: .cases(3000)))
    #expect(result.failure == nil)
    for variant in Variant.allCases {
      let sent = FuzzCoverage.kinds.contains { kind in
        FuzzCoverage.events.contains { result.coverage.hits(kind, $0, variant) > 0 }
      }
      #expect(sent, "\(variant) never sent")
    }
  }

  @Test func theLoadTheNextIntentWillCreateIsNamedExactly() {
    // After play(A): playing another media creates item 2 with token 2; a
    // retry while buffering creates nothing, so the fallback names the
    // current item with the next token.
    let one = Self.model([.play("A")])
    #expect(ActionDecoder.upcoming(after: one, 1) == Load(2, 2))
    #expect(ActionDecoder.upcoming(after: one, 2) == Load(1, 2))
    let queued = Self.model([.queue(["A", "B", "C"])])
    // `next` loads B (item 2) with token 2.
    #expect(ActionDecoder.upcoming(after: queued, 0) == Load(2, 2))
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_COVERAGE_SECONDS"] != nil))
  func fullCoverageInABudget() throws {
    let seconds = try #require(
      Double(ProcessInfo.processInfo.environment["PLAYHEAD_COVERAGE_SECONDS"] ?? ""))
    let result = Fuzzer.run(
      .player, FuzzConfiguration(seed: 1, budget: .seconds(seconds), requireFullCoverage: true))
    print(result)
    print(result.coverage.unsent)
    #expect(result.passed)
  }
}
