import PlayerEngine
import PlayerState
import Testing

@testable import PlayheadMPRIS

/// The pure half of the MPRIS bridge, without D-Bus: values, commands, track ids.
@Suite("MPRIS mapping")
struct MPRISMappingTests {
  let identity = MPRISIdentity(
    identity: "Playhead", supportedUriSchemes: ["file"],
    supportedMimeTypes: ["audio/x-wav", "audio/ogg"])

  /// A view of entry 7 (`song.ogg`, 3 s known), 1.5 s in, playing at 1x.
  var playing: MPRISView {
    MPRISView(
      status: .playing, track: MPRISTrack(item: ItemID(7), title: "song.ogg", length: .seconds(3)),
      elapsed: .milliseconds(1_500), effectiveRate: 1, rate: 1, canGoNext: true,
      canGoPrevious: true, canSeek: true)
  }

  @Test func trackIDsNameEntries() throws {
    #expect(MPRISTrackID.path(for: ItemID(7)) == "/dev/playhead/Entry/7")
    #expect(MPRISTrackID.path(for: ItemID(UInt32.max)) == "/dev/playhead/Entry/4294967295")
    #expect(try MPRISTrackID.item(from: "/dev/playhead/Entry/7") == ItemID(7))
    #expect(try MPRISTrackID.item(from: "/dev/playhead/Entry/4294967295") == ItemID(UInt32.max))
  }

  @Test func badTrackIDsAreClearErrorsNeverTraps() {
    let cases: [(String, MPRISTrackIDError)] = [
      ("/org/mpris/MediaPlayer2/TrackList/NoTrack", .noTrack),
      ("/org/videolan/vlc/playlist/3", .foreign("/org/videolan/vlc/playlist/3")),
      ("", .foreign("")),
      ("/dev/playhead/Entry/", .notAnEntry("/dev/playhead/Entry/")),
      ("/dev/playhead/Entry/0", .notAnEntry("/dev/playhead/Entry/0")),
      ("/dev/playhead/Entry/007", .notAnEntry("/dev/playhead/Entry/007")),
      ("/dev/playhead/Entry/-1", .notAnEntry("/dev/playhead/Entry/-1")),
      ("/dev/playhead/Entry/+1", .notAnEntry("/dev/playhead/Entry/+1")),
      ("/dev/playhead/Entry/4294967296", .notAnEntry("/dev/playhead/Entry/4294967296")),
      ("/dev/playhead/Entry/99999999999999999999", .notAnEntry("/dev/playhead/Entry/99999999999999999999")),
      ("/dev/playhead/Entry/1/2", .notAnEntry("/dev/playhead/Entry/1/2")),
      ("/dev/playhead/Entry/１", .notAnEntry("/dev/playhead/Entry/１")),  // a full-width digit
    ]
    for (path, expected) in cases {
      #expect(throws: expected, "\(path)") { try MPRISTrackID.item(from: path) }
    }
    #expect(
      MPRISTrackIDError.foreign("/x").description
        == "/x is not a Playhead track id (/dev/playhead/Entry/<item>)")
  }

  @Test func microsecondsAndMilliseconds() {
    #expect(MPRISTime.microseconds(.milliseconds(1_500)) == 1_500_000)
    #expect(MPRISTime.microseconds(.milliseconds(.max)) == .max)
    #expect(MPRISTime.microseconds(.milliseconds(.min)) == .min)
    #expect(MPRISTime.mediaTime(microseconds: 1_000_000) == .milliseconds(1_000))
    #expect(MPRISTime.mediaTime(microseconds: 1_499) == .milliseconds(1))
    #expect(MPRISTime.mediaTime(microseconds: 1_500) == .milliseconds(2))
    #expect(MPRISTime.mediaTime(microseconds: -1_500) == .milliseconds(-2))
    #expect(MPRISTime.mediaTime(microseconds: -10_000_000) == .milliseconds(-10_000))
    #expect(MPRISTime.mediaTime(microseconds: .max) == .milliseconds(9_223_372_036_854_776))
    #expect(MPRISTime.mediaTime(microseconds: .min) == .milliseconds(-9_223_372_036_854_776))
  }

  @Test func busNames() throws {
    #expect(try MPRISNames.busName("playhead") == "org.mpris.MediaPlayer2.playhead")
    #expect(
      try MPRISNames.busName("playhead", instance: "instance42")
        == "org.mpris.MediaPlayer2.playhead.instance42")
    #expect(throws: MPRISNameError(element: "4ever")) { try MPRISNames.busName("4ever") }
    #expect(throws: MPRISNameError(element: "a.b")) { try MPRISNames.busName("a.b") }
    #expect(throws: MPRISNameError(element: "")) { try MPRISNames.busName("playhead", instance: "") }
  }

  @Test func propertiesOfAPlayingEntry() {
    #expect(
      playing.metadata.description
        == "{'mpris:trackid': <objectpath '/dev/playhead/Entry/7'>, 'xesam:title': <'song.ogg'>, "
        + "'mpris:length': <int64 3000000>}")
    let properties = playing.playerProperties(identity, since: .milliseconds(250))
    #expect(
      properties.map { "\($0.key)=\($0.value)" } == [
        "PlaybackStatus='Playing'", "Rate=1.0", "Metadata=\(playing.metadata)", "Volume=1.0",
        "MinimumRate=1.0", "MaximumRate=1.0", "CanGoNext=true", "CanGoPrevious=true",
        "CanPlay=true", "CanPause=true", "CanSeek=true", "Position=int64 1750000",
        "CanControl=true",
      ])
    #expect(
      MPRISView.rootProperties(identity).map { "\($0.key)=\($0.value)" } == [
        "CanQuit=false", "CanRaise=false", "HasTrackList=false", "Identity='Playhead'",
        "SupportedUriSchemes=['file']", "SupportedMimeTypes=['audio/x-wav', 'audio/ogg']",
      ])
  }

  @Test func noEntryIsStoppedWithEmptyMetadataAndCannotPlay() {
    let view = MPRISView.empty
    #expect(view.metadata == .dictionary([]))
    #expect(view.canPlay == false)
    #expect(view.canPause == false)
    #expect(view.position(since: .seconds(10)) == 0)
    #expect(
      view.changeableProperties(identity).map { "\($0.key)=\($0.value)" } == [
        "PlaybackStatus='Stopped'", "Rate=1.0", "Metadata={}", "Volume=1.0", "MinimumRate=1.0",
        "MaximumRate=1.0", "CanGoNext=false", "CanGoPrevious=false", "CanPlay=false",
        "CanPause=false", "CanSeek=false",
      ])
  }

  @Test func positionExtrapolatesOnlyWhilePlayingAndStopsAtTheLength() {
    #expect(playing.position(since: .zero) == 1_500_000)
    #expect(playing.position(since: .milliseconds(500)) == 2_000_000)
    #expect(playing.position(since: .seconds(60)) == 3_000_000)  // clamped to mpris:length
    var buffering = playing
    buffering.effectiveRate = 0  // buffering while the user wants to play: Playing, not moving
    #expect(buffering.position(since: .seconds(2)) == 1_500_000)
    var fast = playing
    fast.effectiveRate = 1.5
    fast.track?.length = nil
    #expect(fast.position(since: .seconds(2)) == 4_500_000)
  }

  @Test func changedPropertiesAreOnlyTheChangedOnesNeverPosition() {
    var paused = playing
    paused.status = .paused
    paused.effectiveRate = 0
    paused.elapsed = .milliseconds(1_800)
    #expect(paused.changedProperties(since: playing, identity) == [
      MPRISEntry("PlaybackStatus", .string("Paused"))
    ])
    var next = playing
    next.track = MPRISTrack(item: ItemID(8), title: "next.ogg")
    next.canGoNext = false
    #expect(
      next.changedProperties(since: playing, identity).map { "\($0.key)=\($0.value)" } == [
        "Metadata={'mpris:trackid': <objectpath '/dev/playhead/Entry/8'>, 'xesam:title': <'next.ogg'>}",
        "CanGoNext=false",
      ])
    #expect(playing.changedProperties(since: playing, identity) == [])
  }

  @Test func methodCallsBecomeRemoteCommands() {
    let cases: [(MPRISMethodCall, MPRISReply)] = [
      (.play, .send(.resume)),
      (.pause, .send(.pause)),
      (.playPause, .send(.toggle)),
      (.stop, .send(.stop)),
      (.next, .send(.next)),
      (.previous, .send(.previous)),
      (.seek(offset: 1_000_000), .send(.skip(by: .milliseconds(1_000)))),
      (.seek(offset: -10_000_000), .send(.skip(by: .milliseconds(-10_000)))),
      (.seek(offset: .max), .send(.skip(by: .milliseconds(9_223_372_036_854_776)))),
      (
        .setPosition(trackID: "/dev/playhead/Entry/7", position: 500_000),
        .send(.setPosition(ItemID(7), .milliseconds(500)))
      ),
      // A stale entry is the machine's to ignore (identity): sent, not read-then-acted here.
      (
        .setPosition(trackID: "/dev/playhead/Entry/3", position: 500_000),
        .send(.setPosition(ItemID(3), .milliseconds(500)))
      ),
      (.setPosition(trackID: "/dev/playhead/Entry/7", position: -1), .nothing),
      (
        .setPosition(trackID: "/org/mpris/MediaPlayer2/TrackList/NoTrack", position: 0),
        .error(.invalidArgs("NoTrack names no track"))
      ),
      (
        .setPosition(trackID: "/dev/playhead/Entry/0", position: 0),
        .error(
          .invalidArgs(
            "/dev/playhead/Entry/0 names no entry: the item must be 1 to 4294967295, decimal, no leading zero"
          ))
      ),
      (
        .openUri("file:///tmp/a.wav"),
        .error(.notSupported("OpenUri is not supported: the app owns the queue"))
      ),
      (.raise, .nothing),
      (.quit, .nothing),
    ]
    for (call, expected) in cases {
      #expect(call.reply(in: playing) == expected, "\(call)")
    }
  }

  @Test func playPauseWithoutAnEntryIsAnErrorAsTheSpecSays() {
    #expect(
      MPRISMethodCall.playPause.reply(in: .empty)
        == .error(
          MPRISCallError(
            name: "org.freedesktop.DBus.Error.NotSupported", message: "There is no current entry")))
    #expect(MPRISMethodCall.play.reply(in: .empty) == .send(.resume))  // no effect: the machine's call
  }

  @Test func rateWrites() {
    let wide = MPRISIdentity(minimumRate: 0.5, maximumRate: 2)
    #expect(MPRISMethodCall.rateWrite(0, wide) == .send(.pause))
    #expect(MPRISMethodCall.rateWrite(1.5, wide) == .send(.setRate(PlaybackRate(thousandths: 1_500))))
    #expect(
      MPRISMethodCall.rateWrite(3, wide) == .error(.invalidArgs("Rate 3.0 is outside [0.5, 2.0]")))
    #expect(
      MPRISMethodCall.rateWrite(.nan, wide) == .error(.invalidArgs("Rate nan is outside [0.5, 2.0]")))
    #expect(MPRISIdentity(minimumRate: 2, maximumRate: 0.5) == MPRISIdentity())  // clamped around 1
  }

  /// `Volume` writes: the spec's 0 for a negative value, 1 at most, rounded to the thousandth
  /// (`Volume`'s own rounding); not a number is refused.
  @Test func volumeWrites() {
    let cases: [(Double, MPRISReply)] = [
      (0.3, .send(.setVolume(Volume(thousandths: 300)))),
      (1, .send(.setVolume(.full))),
      (0, .send(.setVolume(.silent))),
      (1.5, .send(.setVolume(.full))),
      (-0.5, .send(.setVolume(.silent))),
      (.infinity, .send(.setVolume(.full))),
      (-.infinity, .send(.setVolume(.silent))),
      (0.12345, .send(.setVolume(Volume(thousandths: 123)))),
      (.nan, .error(.invalidArgs("Volume nan is not a number"))),
    ]
    for (written, reply) in cases {
      #expect(MPRISMethodCall.volumeWrite(written) == reply, "\(written)")
    }
  }

  /// `Volume` reads the user's volume: 0 while muted, and not lowered by a duck (a client
  /// that reads it and writes it back a step louder must not make the duck the user's volume).
  @Test func theVolumeIsTheUsersZeroWhileMuted() {
    var half = playing
    half.volume = 0.5
    #expect(
      half.changedProperties(since: playing, identity).map { "\($0.key)=\($0.value)" } == [
        "Volume=0.5"
      ])
    var state = PlaybackState()
    #expect(MPRISView(state).volume == 1)
    _ = state.handle(.queue(["A"]))
    _ = state.handle(.ready(Load(1, 1)))
    _ = state.handle(.setVolume(0.5))
    #expect(MPRISView(state).volume == 0.5)
    _ = state.handle(.system(.duckBegan))
    #expect(MPRISView(state).volume == 0.5)
    _ = state.handle(.mute)
    #expect(MPRISView(state).volume == 0)
    _ = state.handle(.unmute)
    #expect(MPRISView(state).volume == 0.5)
  }

  @Test func commandsPrint() {
    #expect(MPRISCommand.setVolume(Volume(thousandths: 300)).description == "setVolume(0.3)")
    #expect(MPRISCommand.skip(by: .milliseconds(1_000)).description == "skip(+1000ms)")
    #expect(MPRISCommand.skip(by: .milliseconds(-500)).description == "skip(-500ms)")
    #expect(MPRISCommand.setPosition(ItemID(2), .milliseconds(1_500)).description == "setPosition(item2, 1500ms)")
  }

  @Test func commandsAreRemoteIntents() {
    let cases: [(MPRISCommand, PlaybackEvent)] = [
      (.resume, .remote(.resume)), (.pause, .remote(.pause)), (.toggle, .remote(.toggle)),
      (.stop, .remote(.stop)), (.next, .remote(.next)), (.previous, .remote(.previous)),
      (.skip(by: .milliseconds(-10_000)), .remote(.skip(by: .milliseconds(-10_000)))),
      (.setPosition(ItemID(2), .milliseconds(500)), .remote(.setPosition(ItemID(2), .milliseconds(500)))),
      (.setRate(PlaybackRate(thousandths: 1_500)), .remote(.setRate(PlaybackRate(thousandths: 1_500)))),
      (.setVolume(Volume(thousandths: 300)), .remote(.setVolume(Volume(thousandths: 300)))),
    ]
    for (command, event) in cases { #expect(command.event == event, "\(command)") }
  }

  /// The view of real states, from the machine's own derivations.
  @Test func viewsOfStates() {
    var state = PlaybackState()
    #expect(MPRISView(state) == .empty)
    _ = state.handle(.queue(["A", "B"], playWhenReady: false))
    // Loading, paused: Paused, entry 1, nothing to extrapolate; next is available, a seek too.
    #expect(
      MPRISView(state)
        == MPRISView(
          status: .paused, track: MPRISTrack(item: ItemID(1), title: "A"), elapsed: .zero,
          effectiveRate: 0, rate: 1, canGoNext: true, canGoPrevious: true, canSeek: true))
    _ = state.handle(.ready(Load(1, 1), duration: .seconds(3)))
    _ = state.handle(.remote(.toggle))
    var view = MPRISView(state)
    #expect(view.status == .playing)
    #expect(view.effectiveRate == 1)
    #expect(view.track == MPRISTrack(item: ItemID(1), title: "A", length: .seconds(3)))
    _ = state.handle(.remote(.skip(by: .seconds(1))))
    view = MPRISView(state)
    #expect(view.elapsed == .seconds(1))  // the anchor is the seek's target when issued
    #expect(view.effectiveRate == 1)  // still playing: main's rate is 0 only when not playing
    #expect(view.status == .playing)
    _ = state.handle(.remote(.next))
    view = MPRISView(state)
    #expect(view.track?.trackID == "/dev/playhead/Entry/2")
    #expect(view.canGoNext == false)
  }

  /// `Seeked` follows the machine's steps: accepted seeks, skips and setPositions, a
  /// `previous` that restarts the entry, a repeat-one replay; nothing else.
  @Test func seekedSteps() {
    var state = PlaybackState()
    var sequence: UInt64 = 0
    func step(_ event: PlaybackEvent) -> Bool {
      sequence += 1
      let transition = state.transition(on: event)
      let step = PlayerStep(sequence: sequence, event: event, before: state, transition: transition)
      state = transition.next
      return Player.seeked(step)
    }
    #expect(step(.queue(["A", "B"])) == false)
    #expect(step(.ready(Load(1, 1), duration: .seconds(10))) == false)
    #expect(step(.remote(.skip(by: .seconds(5)))) == true)
    #expect(step(.seekCompleted(Load(1, 1), SeekID(1))) == false)
    #expect(step(.remote(.setPosition(ItemID(2), .seconds(1)))) == false)  // stale: ignored
    #expect(step(.remote(.setPosition(ItemID(1), .seconds(1)))) == true)
    #expect(step(.user(.seek(to: .seconds(6)))) == true)
    #expect(step(.remote(.pause)) == false)
    #expect(step(.remote(.previous)) == true)  // 6 s in: restarts the entry
    #expect(step(.remote(.next)) == false)  // another entry: Metadata changes instead
    #expect(step(.remote(.previous)) == false)
    #expect(step(.user(.setRepeat(.one))) == false)
    #expect(step(.remote(.toggle)) == false)
    let load = state.load ?? Load(0, 0)
    #expect(step(.ready(load, duration: .seconds(10))) == false)
    #expect(step(.reachedEnd(load)) == true)  // repeat one: the entry replays from 0
  }

  @Test func methodDecoding() {
    #expect(MPRISServer.decode("PlayPause", nil) == .playPause)
    #expect(MPRISServer.decode("Seek", nil) == nil)  // no argument: not a Seek
    #expect(MPRISServer.decode("Frobnicate", nil) == nil)
  }
}
