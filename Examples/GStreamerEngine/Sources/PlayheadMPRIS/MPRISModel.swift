public import PlayerState

// The pure half of the MPRIS bridge: what a player shows (MPRISView) becomes
// property values, and a D-Bus method call becomes a command for the player.
// No D-Bus here: MPRISServer only carries these values over GDBus.

/// MPRIS's `PlaybackStatus`.
public enum MPRISPlaybackStatus: String, Hashable, Sendable, CaseIterable {
  /// The user wants to play and nothing suppresses it (buffering and stalls included).
  case playing = "Playing"
  /// There is a current entry, but it is not meant to be playing now (paused, suppressed, failed).
  case paused = "Paused"
  /// Nothing loaded, or the queue has ended.
  case stopped = "Stopped"
}

/// The current queue entry as MPRIS shows it.
public struct MPRISTrack: Hashable, Sendable {
  /// The entry's item id: the track id names the entry, not the media.
  public var item: ItemID
  /// `xesam:title`: the media's name.
  public var title: String
  /// `mpris:length`, when the duration is known.
  public var length: MediaTime?

  /// A track.
  /// - Parameters:
  ///   - item: the entry's item id.
  ///   - title: the media's name.
  ///   - length: the duration, if known.
  public init(item: ItemID, title: String, length: MediaTime? = nil) {
    self.item = item
    self.title = title
    self.length = length
  }

  /// `mpris:trackid`: `/dev/playhead/Entry/<item id>`.
  public var trackID: String { MPRISTrackID.path(for: item) }
}

/// What a player shows over MPRIS at one moment: the input of every property.
///
/// Made from a `PlaybackState` by `MPRISView(_:)` (PlayheadMPRIS's adapter)
/// and compared step by step to find the properties that changed.
public struct MPRISView: Hashable, Sendable {
  /// `PlaybackStatus`.
  public var status: MPRISPlaybackStatus
  /// The current entry; nil when the queue has none.
  public var track: MPRISTrack?
  /// The elapsed time at the last discontinuity (the anchor `Position` is extrapolated from).
  public var elapsed: MediaTime
  /// The rate at which the position advances from the anchor: 0 unless media is playing.
  public var effectiveRate: Double
  /// `Rate`: the rate the user asked for (never 0; MPRIS shows a pause with `PlaybackStatus`).
  public var rate: Double
  /// `CanGoNext`.
  public var canGoNext: Bool
  /// `CanGoPrevious`.
  public var canGoPrevious: Bool
  /// `CanSeek`.
  public var canSeek: Bool
  /// `Volume`: the user's volume, 0 while muted (MPRIS has no mute: "0.0 means mute"). Not the
  /// duck: a client that reads it, adds a step and writes it back would make the duck the
  /// user's volume.
  public var volume: Double

  /// A view.
  /// - Parameters:
  ///   - status: `PlaybackStatus`.
  ///   - track: the current entry, if any.
  ///   - elapsed: the elapsed anchor.
  ///   - effectiveRate: 0 unless playing.
  ///   - rate: the user's rate.
  ///   - canGoNext: whether `next` is available.
  ///   - canGoPrevious: whether `previous` is available.
  ///   - canSeek: whether a seek is available.
  ///   - volume: the user's volume, 0 while muted.
  public init(
    status: MPRISPlaybackStatus, track: MPRISTrack?, elapsed: MediaTime = .zero,
    effectiveRate: Double = 0, rate: Double = 1, canGoNext: Bool = false,
    canGoPrevious: Bool = false, canSeek: Bool = false, volume: Double = 1
  ) {
    self.status = status
    self.track = track
    self.elapsed = elapsed
    self.effectiveRate = effectiveRate
    self.rate = rate
    self.canGoNext = canGoNext
    self.canGoPrevious = canGoPrevious
    self.canSeek = canSeek
    self.volume = volume
  }

  /// No current entry: stopped, nothing available.
  public static let empty = MPRISView(status: .stopped, track: nil)

  /// `CanPlay`: true while there is a current entry. Not from the available commands: the spec
  /// makes it independent of the status, and playerctl refuses `play-pause`, `stop` and
  /// `metadata` while it is false.
  public var canPlay: Bool { track != nil }

  /// `CanPause`: true while there is a current entry (an intrinsic property of the track).
  public var canPause: Bool { track != nil }

  /// `Position` in microseconds, `since` after the anchor was set: the anchor plus the
  /// effective rate times the time since, clamped to [0, length].
  /// - Parameter since: the time since the view's anchor was taken.
  public func position(since: Duration) -> Int64 {
    let anchor = MPRISTime.microseconds(elapsed)
    let (seconds, attoseconds) = since.components
    let sinceMicroseconds = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    let advanced = effectiveRate > 0 ? sinceMicroseconds * effectiveRate : 0
    var position = Double(anchor) + max(0, advanced)
    if let length = track?.length { position = min(position, Double(MPRISTime.microseconds(length))) }
    guard position.isFinite, position > 0 else { return 0 }
    return position >= 9.2e18 ? Int64.max : Int64(position)
  }
}

/// Conversions between Playhead's milliseconds and MPRIS's microseconds.
public enum MPRISTime {
  /// Microseconds of a media time, saturating at the ends of `Int64`.
  /// - Parameter time: a media time.
  public static func microseconds(_ time: MediaTime) -> Int64 {
    let (product, overflow) = time.milliseconds.multipliedReportingOverflow(by: 1000)
    return overflow ? (time.milliseconds < 0 ? .min : .max) : product
  }

  /// The media time of `microseconds`, rounded to the nearest millisecond (halves away from 0).
  /// - Parameter microseconds: a signed count of microseconds.
  public static func mediaTime(microseconds: Int64) -> MediaTime {
    let whole = microseconds / 1000
    let rest = microseconds % 1000  // same sign as microseconds
    if rest >= 500 { return .milliseconds(whole + 1) }
    if rest <= -500 { return .milliseconds(whole - 1) }
    return .milliseconds(whole)
  }
}

/// Track ids: the object path `/dev/playhead/Entry/<item id>`, naming a queue entry.
///
/// Entries, not media: the same media queued twice has two track ids, so a `SetPosition` for
/// the first is stale once the second plays. Paths under `/org/mpris` are reserved by the spec.
public enum MPRISTrackID {
  /// The prefix of every Playhead track id.
  public static let prefix = "/dev/playhead/Entry/"
  /// The spec's "no track" path, never a valid `SetPosition` argument.
  public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

  /// The track id of an entry.
  /// - Parameter item: the entry's item id.
  public static func path(for item: ItemID) -> String { prefix + String(item.rawValue) }

  /// The item id a track id names.
  /// - Parameter path: a track id, as a client sends it.
  /// - Throws: ``MPRISTrackIDError`` when it is not one of Playhead's track ids.
  public static func item(from path: String) throws(MPRISTrackIDError) -> ItemID {
    if path == noTrack { throw .noTrack }
    guard path.hasPrefix(prefix) else { throw .foreign(path) }
    let digits = path.utf8.dropFirst(prefix.utf8.count)
    // Decimal digits only, no sign, no leading zero (one spelling per entry), 1…2³²−1.
    guard !digits.isEmpty, digits.count <= 10, digits.first != UInt8(ascii: "0"),
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let value = UInt32(Substring(digits))
    else { throw .notAnEntry(path) }
    return ItemID(value)
  }
}

/// Why a track id is not one of Playhead's.
public enum MPRISTrackIDError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The spec's `/org/mpris/MediaPlayer2/TrackList/NoTrack`.
  case noTrack
  /// A path outside `/dev/playhead/Entry/`: another player's id.
  case foreign(String)
  /// Under the prefix, but not an item id (1 to 4294967295, decimal, no leading zero).
  case notAnEntry(String)

  /// A sentence for the D-Bus error's message.
  public var description: String {
    switch self {
    case .noTrack: "NoTrack names no track"
    case .foreign(let path): "\(path) is not a Playhead track id (/dev/playhead/Entry/<item>)"
    case .notAnEntry(let path):
      "\(path) names no entry: the item must be 1 to 4294967295, decimal, no leading zero"
    }
  }
}

/// A D-Bus value, as MPRIS properties hold them.
public indirect enum MPRISValue: Hashable, Sendable, CustomStringConvertible {
  /// `b`.
  case bool(Bool)
  /// `s`.
  case string(String)
  /// `x`.
  case int64(Int64)
  /// `d`.
  case double(Double)
  /// `o`.
  case objectPath(String)
  /// `as`.
  case strings([String])
  /// `a{sv}`, in this key order.
  case dictionary([MPRISEntry])

  /// A GVariant-like text, as in `{'mpris:trackid': <objectpath '/dev/playhead/Entry/1'>}`.
  public var description: String {
    switch self {
    case .bool(let value): "\(value)"
    case .string(let value): "'\(value)'"
    case .int64(let value): "int64 \(value)"
    case .double(let value): "\(value)"
    case .objectPath(let value): "objectpath '\(value)'"
    case .strings(let values): "[" + values.map { "'\($0)'" }.joined(separator: ", ") + "]"
    case .dictionary(let entries):
      "{" + entries.map { "'\($0.key)': <\($0.value)>" }.joined(separator: ", ") + "}"
    }
  }
}

/// One key and value of an `a{sv}` dictionary.
public struct MPRISEntry: Hashable, Sendable {
  /// The key, such as `mpris:trackid`.
  public var key: String
  /// The value.
  public var value: MPRISValue

  /// An entry.
  /// - Parameters:
  ///   - key: the key.
  ///   - value: the value.
  public init(_ key: String, _ value: MPRISValue) {
    self.key = key
    self.value = value
  }
}

/// The player's fixed facts: the root interface's properties and the rate range.
public struct MPRISIdentity: Hashable, Sendable {
  /// `Identity`: the player's friendly name.
  public var identity: String
  /// `DesktopEntry`, the .desktop file's basename; nil to leave the property out.
  public var desktopEntry: String?
  /// `SupportedUriSchemes`.
  public var supportedUriSchemes: [String]
  /// `SupportedMimeTypes`.
  public var supportedMimeTypes: [String]
  /// `MinimumRate` (at most 1).
  public var minimumRate: Double
  /// `MaximumRate` (at least 1).
  public var maximumRate: Double

  /// Fixed facts.
  /// - Parameters:
  ///   - identity: the friendly name.
  ///   - desktopEntry: the .desktop basename, if any.
  ///   - supportedUriSchemes: URI schemes the player plays.
  ///   - supportedMimeTypes: media types the player plays.
  ///   - minimumRate: the lowest rate; clamped to at most 1.
  ///   - maximumRate: the highest rate; clamped to at least 1.
  public init(
    identity: String = "Playhead", desktopEntry: String? = nil,
    supportedUriSchemes: [String] = ["file"], supportedMimeTypes: [String] = [],
    minimumRate: Double = 1, maximumRate: Double = 1
  ) {
    self.identity = identity
    self.desktopEntry = desktopEntry
    self.supportedUriSchemes = supportedUriSchemes
    self.supportedMimeTypes = supportedMimeTypes
    self.minimumRate = min(1, minimumRate)
    self.maximumRate = max(1, maximumRate)
  }
}

/// The D-Bus names MPRIS uses.
public enum MPRISNames {
  /// The object path of every MPRIS player.
  public static let objectPath = "/org/mpris/MediaPlayer2"
  /// The root interface.
  public static let root = "org.mpris.MediaPlayer2"
  /// The player interface.
  public static let player = "org.mpris.MediaPlayer2.Player"
  /// The prefix of every MPRIS bus name.
  public static let busNamePrefix = "org.mpris.MediaPlayer2."

  /// `org.mpris.MediaPlayer2.<name>` and, with an instance, `.<instance>`.
  /// - Parameters:
  ///   - name: the player's name, such as `playhead`.
  ///   - instance: a suffix for one of several instances, such as `instance42`; nil for none.
  /// - Throws: ``MPRISNameError`` when a part is not a bus name element (`[A-Za-z0-9_-]`, not
  ///   starting with a digit, not empty).
  public static func busName(_ name: String, instance: String? = nil) throws(MPRISNameError)
    -> String
  {
    for part in [name] + (instance.map { [$0] } ?? []) {
      let bytes = Array(part.utf8)
      let valid = bytes.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      }
      guard let first = bytes.first, valid, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
      else { throw MPRISNameError(element: part) }
    }
    return busNamePrefix + name + (instance.map { "." + $0 } ?? "")
  }
}

/// A bus name element that D-Bus does not accept.
public struct MPRISNameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The element.
  public let element: String
  /// A sentence naming it.
  public var description: String {
    "'\(element)' is not a bus name element: [A-Za-z0-9_-], not empty, not starting with a digit"
  }
}

extension MPRISView {
  /// The root interface's properties (fixed).
  /// - Parameter identity: the player's fixed facts.
  public static func rootProperties(_ identity: MPRISIdentity) -> [MPRISEntry] {
    var properties: [MPRISEntry] = [
      MPRISEntry("CanQuit", .bool(false)), MPRISEntry("CanRaise", .bool(false)),
      MPRISEntry("HasTrackList", .bool(false)), MPRISEntry("Identity", .string(identity.identity)),
      MPRISEntry("SupportedUriSchemes", .strings(identity.supportedUriSchemes)),
      MPRISEntry("SupportedMimeTypes", .strings(identity.supportedMimeTypes)),
    ]
    if let entry = identity.desktopEntry {
      properties.append(MPRISEntry("DesktopEntry", .string(entry)))
    }
    return properties
  }

  /// `Metadata`: `mpris:trackid`, `xesam:title`, and `mpris:length` (µs) when the duration
  /// is known; empty with no current entry.
  public var metadata: MPRISValue {
    guard let track else { return .dictionary([]) }
    var entries = [
      MPRISEntry("mpris:trackid", .objectPath(track.trackID)),
      MPRISEntry("xesam:title", .string(track.title)),
    ]
    if let length = track.length {
      entries.append(MPRISEntry("mpris:length", .int64(MPRISTime.microseconds(length))))
    }
    return .dictionary(entries)
  }

  /// The player interface's properties that emit `PropertiesChanged`, in the spec's order:
  /// everything but `Position` (which a client extrapolates, told of jumps by `Seeked`) and
  /// `CanControl` (constant).
  /// - Parameter identity: the player's fixed facts (the rate range).
  public func changeableProperties(_ identity: MPRISIdentity) -> [MPRISEntry] {
    [
      MPRISEntry("PlaybackStatus", .string(status.rawValue)),
      MPRISEntry("Rate", .double(rate)),
      MPRISEntry("Metadata", metadata),
      MPRISEntry("Volume", .double(volume)),
      MPRISEntry("MinimumRate", .double(identity.minimumRate)),
      MPRISEntry("MaximumRate", .double(identity.maximumRate)),
      MPRISEntry("CanGoNext", .bool(canGoNext)),
      MPRISEntry("CanGoPrevious", .bool(canGoPrevious)),
      MPRISEntry("CanPlay", .bool(canPlay)),
      MPRISEntry("CanPause", .bool(canPause)),
      MPRISEntry("CanSeek", .bool(canSeek)),
    ]
  }

  /// Every property of the player interface, `Position` taken `since` after the anchor.
  /// - Parameters:
  ///   - identity: the player's fixed facts.
  ///   - since: the time since the anchor was taken.
  public func playerProperties(_ identity: MPRISIdentity, since: Duration) -> [MPRISEntry] {
    changeableProperties(identity) + [
      MPRISEntry("Position", .int64(position(since: since))),
      MPRISEntry("CanControl", .bool(true)),
    ]
  }

  /// The properties whose values differ from those of `old`: what `PropertiesChanged` carries.
  /// - Parameters:
  ///   - old: the view the client last heard of.
  ///   - identity: the player's fixed facts.
  public func changedProperties(since old: MPRISView, _ identity: MPRISIdentity) -> [MPRISEntry] {
    let before = old.changeableProperties(identity)
    return zip(before, changeableProperties(identity)).compactMap { old, new in
      old.value == new.value ? nil : new
    }
  }
}

/// A command the MPRIS bridge sends the player: a remote intent.
public enum MPRISCommand: Hashable, Sendable, CustomStringConvertible {
  /// `Play`: resume (idle loads the current entry, ended replays it).
  case resume
  /// `Pause`.
  case pause
  /// `PlayPause`: the machine's toggle, decided by the reducer, never by reading the state here.
  case toggle
  /// `Stop`.
  case stop
  /// `Next`.
  case next
  /// `Previous`.
  case previous
  /// `Seek(offset)`: relative to the machine's own target.
  case skip(by: MediaTime)
  /// `SetPosition(track, position)`: ignored by the machine unless the entry is current.
  case setPosition(ItemID, MediaTime)
  /// A write of `Rate` within the range.
  case setRate(PlaybackRate)
  /// A write of `Volume`, clamped to 0…1.
  case setVolume(Volume)

  /// `toggle`, `skip(+1000ms)`, `setPosition(item2, 1500ms)`.
  public var description: String {
    switch self {
    case .resume: "resume"
    case .pause: "pause"
    case .toggle: "toggle"
    case .stop: "stop"
    case .next: "next"
    case .previous: "previous"
    case .skip(let delta): "skip(\(delta.milliseconds >= 0 ? "+" : "")\(delta))"
    case .setPosition(let item, let time): "setPosition(\(item), \(time))"
    case .setRate(let rate): "setRate(\(rate))"
    case .setVolume(let volume): "setVolume(\(volume))"
    }
  }
}

/// A D-Bus method call on the MPRIS object, decoded.
public enum MPRISMethodCall: Hashable, Sendable {
  /// `org.mpris.MediaPlayer2.Raise`.
  case raise
  /// `org.mpris.MediaPlayer2.Quit`.
  case quit
  /// `Play`.
  case play
  /// `Pause`.
  case pause
  /// `PlayPause`.
  case playPause
  /// `Stop`.
  case stop
  /// `Next`.
  case next
  /// `Previous`.
  case previous
  /// `Seek(x Offset)`, in microseconds.
  case seek(offset: Int64)
  /// `SetPosition(o TrackId, x Position)`, in microseconds.
  case setPosition(trackID: String, position: Int64)
  /// `OpenUri(s Uri)`.
  case openUri(String)
}

/// A D-Bus error to answer a call with.
public struct MPRISCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The D-Bus error name.
  public var name: String
  /// The message.
  public var message: String

  /// An error.
  /// - Parameters:
  ///   - name: the D-Bus error name.
  ///   - message: the message.
  public init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  /// The name and message.
  public var description: String { "\(name): \(message)" }

  /// `org.freedesktop.DBus.Error.NotSupported`.
  public static func notSupported(_ message: String) -> MPRISCallError {
    MPRISCallError(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
  }

  /// `org.freedesktop.DBus.Error.InvalidArgs`.
  public static func invalidArgs(_ message: String) -> MPRISCallError {
    MPRISCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
  }
}

/// How the bridge answers a method call or a property write.
public enum MPRISReply: Hashable, Sendable {
  /// Send the player this command, then return.
  case send(MPRISCommand)
  /// Return and do nothing (the spec's "no effect").
  case nothing
  /// Answer with a D-Bus error and do nothing.
  case error(MPRISCallError)
}

extension MPRISMethodCall {
  /// What to do for this call. Only the spec's errors read `view`; every other decision
  /// (is there a next entry, is a seek possible, is the track id current) is the machine's,
  /// taken when it reduces the command: no read-then-act here.
  /// - Parameter view: the player as the client sees it.
  public func reply(in view: MPRISView) -> MPRISReply {
    switch self {
    case .raise, .quit: return .nothing  // CanRaise and CanQuit are false: no effect.
    case .play: return .send(.resume)
    case .pause: return .send(.pause)
    case .playPause:
      // The spec: with CanPause false, "no effect and raise an error".
      guard view.canPause else { return .error(.notSupported("There is no current entry")) }
      return .send(.toggle)
    case .stop: return .send(.stop)
    case .next: return .send(.next)
    case .previous: return .send(.previous)
    case .seek(let offset): return .send(.skip(by: MPRISTime.mediaTime(microseconds: offset)))
    case .setPosition(let trackID, let position):
      let item: ItemID
      do { item = try MPRISTrackID.item(from: trackID) } catch {
        return .error(.invalidArgs(error.description))
      }
      // The spec: "If the Position argument is less than 0, do nothing."
      guard position >= 0 else { return .nothing }
      return .send(.setPosition(item, MPRISTime.mediaTime(microseconds: position)))
    case .openUri: return .error(.notSupported("OpenUri is not supported: the app owns the queue"))
    }
  }

  /// The answer to a write of `Rate`: 0 acts as `Pause` (the spec), a rate within
  /// [MinimumRate, MaximumRate] sets it, anything else is refused.
  /// - Parameters:
  ///   - rate: the value written.
  ///   - identity: the rate range.
  public static func rateWrite(_ rate: Double, _ identity: MPRISIdentity) -> MPRISReply {
    if rate == 0 { return .send(.pause) }
    guard rate.isFinite, rate >= identity.minimumRate, rate <= identity.maximumRate,
      rate * 1000 <= Double(Int32.max)
    else {
      return .error(
        .invalidArgs("Rate \(rate) is outside [\(identity.minimumRate), \(identity.maximumRate)]"))
    }
    return .send(.setRate(PlaybackRate(rate)))
  }

  /// The answer to a write of `Volume`: the user's volume, clamped to [0, 1] (the spec: "if a
  /// negative value is passed, the volume should be set to 0.0"; above 1 is louder than the
  /// engine plays) and rounded to the thousandth; a value that is not a number is refused.
  /// - Parameter volume: the value written.
  public static func volumeWrite(_ volume: Double) -> MPRISReply {
    guard !volume.isNaN else { return .error(.invalidArgs("Volume nan is not a number")) }
    return .send(.setVolume(Volume(min(1, max(0, volume)))))
  }
}
