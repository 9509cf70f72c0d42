/// The scenario of `player-sim demo`: a late callback arrives after `stop`,
/// and again after a switch to other media, and the player ignores both;
/// then a queue's late end callback arrives after the user chose a new list,
/// and the player plays the new list, never the old one's next entry; last,
/// an interruption ends with the hint to resume after the user paused, and
/// nothing starts.
public enum DemoScenario {
  /// The file name the demo is parsed under, used in messages.
  public static let file = "demo"

  /// The demo's script, in the scenario language.
  public static let text = """
    # player-sim demo: late callbacks must change nothing.
    media A ready-after=300ms duration=5s
    media B ready-after=500ms duration=5s
    media C duration=1s
    media D duration=1s
    media E ready-after=300ms
    media F
    # This engine, like many real ones, still calls back for loads it was told to stop.
    hostile on duplicate=0% reentrant=0%

    note 1. Play A, and stop it while it is still buffering.
    play A
    wait 100ms
    stop
    note    A#1 finishes buffering anyway and says "ready": ignored, nothing starts.
    wait 300ms
    expect state idle
    expect commands load(A#1) stop(A#1)
    expect ignored staleLoad

    note 2. Play A again, and switch to B before A is ready.
    play A
    wait 100ms
    play B
    note    A#2's late "ready" arrives while B#3 buffers: ignored, B is not disturbed.
    wait 600ms
    expect state playing(B#3)
    expect commands load(A#2) stop(A#2) load(B#3) start(B#3)
    expect ignored staleLoad

    note 3. A queue, C then D. Just before D ends, the user chooses a new list starting at E.
    queue C D
    wait until playing(D#5)
    wait 900ms
    queue E F
    note    D#5's "ended" arrives after the new list: ignored, so nothing advances past D.
    wait 1s
    expect state playing(E#6)
    expect queue E* F
    expect ignored staleLoad
    expect commands stop(B#3) load(C#4) start(C#4) stop(C#4) load(D#5) start(D#5) stop(D#5) load(E#6) start(E#6)

    note 4. A phone call interrupts E, and the user taps pause during the call.
    interrupt begin
    pause
    note    The call ends with the hint to resume, but the user paused: nothing starts.
    interrupt end resume
    expect state paused(E#6)
    resume
    expect state playing(E#6)
    expect commands pause(E#6) start(E#6)
    note Every late report named a load that was no longer current, so the machine ignored it;
    note the system's pause never became the user's intent, nor its end a tap on play.
    """
}
