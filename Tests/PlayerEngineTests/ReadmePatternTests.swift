import Foundation
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

// README begin: the README's observation block, without its imports. The
// first test checks that the two stay the same.

/// Owns a player and shows its state. When the screen is released, so is the
/// player, and the observation loop ends.
@MainActor
final class PlayerScreen {
  let player: Player
  private var observation: Task<Void, Never>?

  init(engine: any PlaybackEngine) {
    player = Player(engine: engine)
    // Take the stream here: the task must not capture the player.
    let states = player.latestStates()
    observation = Task { [weak self] in
      for await state in states { self?.show(state) }
    }
  }

  deinit { observation?.cancel() }

  func show(_ state: PlaybackState) {
    print(state.kind, state.isPlaying)  // update your views here
  }
}

// README end

/// The README's observation pattern, run: issue 12 measured that the earlier
/// README's `Task { for await state in player.latestStates() { … } }` never
/// released the player.
@Suite("The README's observation pattern")
struct ReadmePatternTests {
  /// The README's block is the code these tests run.
  @Test func readmeShowsThisCode() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let test = try String(contentsOf: here, encoding: .utf8)
    let marker = "ReadmePatternTests.swift runs it -->\n```swift\n"
    let block = try #require(readme.range(of: marker)).upperBound
    let blockEnd = try #require(readme.range(of: "```", range: block..<readme.endIndex)).lowerBound
    let shown = readme[block..<blockEnd].split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0.hasPrefix("import ") || $0.isEmpty }
    let begin = try #require(test.range(of: "// README begin")).upperBound
    let codeStart = try #require(test.range(of: "\n\n///", range: begin..<test.endIndex)).lowerBound
    let codeEnd = try #require(test.range(of: "// README end")).lowerBound
    let run = test[codeStart..<codeEnd].split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0.isEmpty }
    #expect(
      shown.joined(separator: "\n").trimmingCharacters(in: .newlines)
        == run.joined(separator: "\n").trimmingCharacters(in: .newlines))
  }

  @MainActor
  @Test func theScreenReleasesThePlayer() {
    var screen: PlayerScreen? = PlayerScreen(engine: SpyEngine.cooperative(.immediately))
    weak let player = screen?.player
    screen?.player.send(.play("A"))
    #expect(player?.state.description == "playing(A#1)")
    weak let released = screen
    screen = nil
    #expect(released == nil)
    #expect(player == nil)
  }

  /// What the README used to show: the task holds the player, and the
  /// stream does not finish while the player lives.
  @MainActor
  @Test func theOldPatternKeepsThePlayerAlive() async {
    var owner: Player? = Player(engine: SpyEngine.cooperative(.immediately))
    weak let player = owner
    let task = Task { [owner] in
      guard let owner else { return 0 }
      var seen = 0
      for await _ in owner.latestStates() { seen += 1 }
      return seen
    }
    owner = nil
    #expect(player != nil)  // the task's closure still holds it
    task.cancel()
    #expect(await task.value == 1)  // only cancelling ended the loop
  }
}
