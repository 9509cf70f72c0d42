import PlayerFuzz
import PlayerState
import Testing

/// Issue 10's events and reports in the saved-failure format.
@Suite struct SystemFormatTests {
  @Test func theSystemsEventsAndAFailureDetailRoundTrip() throws {
    let text = """
      engine preload=no retry=2/500ms/800ms
      play(A)
      interrupt begin
      ready(A#1)
      interrupt end resume
      pausedBySystem(A#1)
      route lost
      interrupt end
      failed(A#1, network, NSURLErrorDomain -1009 "offline, \\"really\\" \\\\ gone")
      network available
      network lost
      failed(A#2, decoding, AVFoundationErrorDomain -11800 "")
      """
    let parsed = try FailureFile.parseCase(text)
    #expect(!parsed.canPreload)
    #expect(
      parsed.retry
        == RetryPolicy(attempts: 2, backoff: .milliseconds(500), maximumBackoff: .milliseconds(800))
    )
    #expect(
      parsed.actions == [
        .send(.play("A")), .send(.system(.interruptionBegan)), .send(.ready(Load(1, 1))),
        .send(.system(.interruptionEnded(shouldResume: true))),
        .send(.engine(.pausedBySystem(Load(1, 1)))), .send(.system(.routeLost)),
        .send(.system(.interruptionEnded(shouldResume: false))),
        .send(
          .engine(
            .failed(
              Load(1, 1), .network,
              detail: FailureDetail(
                domain: "NSURLErrorDomain", code: -1009, message: #"offline, "really" \ gone"#)))),
        .send(.system(.networkAvailable)), .send(.system(.networkLost)),
        .send(
          .engine(
            .failed(
              Load(1, 2), .decoding,
              detail: FailureDetail(domain: "AVFoundationErrorDomain", code: -11800, message: "")))),
      ])
    #expect(FailureFile.format(parsed) == text + "\n")
  }

  @Test func theCompactFormsOfTheStepsStreamReadTheSame() throws {
    let compact = try FailureFile.parseCase(
      "interruption(began)\ninterruption(ended, resume)\ninterruption(ended)\nroute(lost)\n"
        + "network(lost)\nnetwork(available)\npaused-by-system(A#1)\n")
    #expect(
      compact.actions == [
        .send(.system(.interruptionBegan)), .send(.system(.interruptionEnded(shouldResume: true))),
        .send(.system(.interruptionEnded(shouldResume: false))), .send(.system(.routeLost)),
        .send(.system(.networkLost)), .send(.system(.networkAvailable)),
        .send(.engine(.pausedBySystem(Load(0, 1)))),
      ])
    #expect(try FailureFile.parseCase("engine preload=yes retry=off\n").retry == .off)
    #expect(try FailureFile.parseCase("engine preload=yes\n").retry == .standard)
    // A case with another policy does not fit the actions-only reader.
    #expect(throws: FuzzParseError.self) { try FailureFile.parse("engine preload=no retry=off\n") }
  }

  @Test(arguments: [
    (
      "failed(A#1, network, NSURLErrorDomain x \"offline\")\n",
      "f.txt:1:22: error: expected the engine's error as DOMAIN CODE \"MESSAGE\"; got `NSURLErrorDomain x \"offline\"`"
    ),
    (
      "failed(A#1, network, D 1 offline)\n",
      "f.txt:1:26: error: expected a quoted message such as \"offline\"; got `offline`"
    ),
    (
      "failed(A#1, network, D 1 \"a \" b\")\n",
      "f.txt:1:26: error: a quote inside the message must be escaped as \\\""
    ),
    ("failed(A#1)\n", "f.txt:1:8: error: `failed` takes 2 or 3 arguments"),
    (
      "engine preload=no retry=3/2000ms/1000ms\n",
      "f.txt:1:19: error: expected `retry=off` or `retry=ATTEMPTS/BACKOFF/MAX` such as retry=3/1000ms/30000ms (MAX at least BACKOFF); got `retry=3/2000ms/1000ms`"
    ),
    (
      "interrupt end maybe\n",
      "f.txt:1:1: error: expected an action such as queue(A B), play(A), pause, ready(A#1), reentrant ready(A#1), deliver; got `interrupt end maybe`"
    ),
    ("pausedBySystem(A#1, now)\n", "f.txt:1:16: error: `pausedBySystem` takes 1 argument"),
  ])
  func badSystemLinesSayWhereAndWhat(_ text: String, _ message: String) {
    do {
      _ = try FailureFile.parseCase(text, file: "f.txt")
      Issue.record("\(text) parsed")
    } catch {
      #expect(error.description == message)
    }
  }
}
