import PlayerState

// The sleep timer, from docs/machine.md "Sleep timer": at most one armed; a
// countdown with an id of its own whose expiry counts only while it is the
// armed one; a stop at the end of an entry (end of entry, the last of a
// count, the last in play order) that pauses and loads nothing next; no
// preload while that stop is due; `stop` and `clear` disarm it.

extension ContractModel {
  /// Whether the armed timer stops playback at the end of the current entry.
  var sleepStopsHere: Bool { sleepStops(at: position) }

  /// Whether the armed timer stops playback at the end of entry `position`.
  func sleepStops(at position: Int?) -> Bool {
    switch sleep {
    case .endOfEntry, .afterEntries(1): true
    case .endOfQueue: position == entries.count - 1
    case .after, .afterEntries, nil: false
    }
  }

  /// Why `setSleepTimer(timer)` is ignored, or nil.
  func sleepIgnoreReason(_ timer: SleepTimer?) -> IgnoreReason? {
    switch timer {
    case nil: return sleep == nil ? .noEffect : nil
    case .after(let delay):
      if delay.roundedMilliseconds <= 0 { return .invalidArgument }
      return issuedSleep == UInt32.max ? .idsExhausted : nil
    case .afterEntries(0): return .invalidArgument
    case let other?:
      // A live entry has no end to stop at (ContractLive.swift).
      if current?.window != nil { return .liveStream }
      return other == sleep ? .noEffect : nil
    }
  }

  /// Why a countdown's expiry is ignored: unless `after` is armed and `id` is
  /// the newest countdown's, it is stale.
  func sleepExpiryIgnoreReason(_ id: UInt32) -> IgnoreReason? {
    guard case .after = sleep, id != 0, id == issuedSleep else { return .staleWatchdog }
    return nil
  }

  /// `setSleepTimer`, accepted: a countdown takes the next id.
  mutating func setSleep(_ timer: SleepTimer?) {
    if case .after = timer { issuedSleep += 1 }
    sleep = timer
  }

  /// The armed countdown ran out: disarmed; a user who wants to play is paused.
  mutating func expireSleep(_ out: inout [EngineCommand]) {
    sleep = nil
    if current != nil, playWhenReady { user(.pause, &out) }
  }

  /// A natural end of the current entry: the timer that stops there is
  /// disarmed and the intent becomes pause; a count of entries goes down by one.
  mutating func countSleepEnd(stopping: Bool) {
    if stopping {
      sleep = nil
      playWhenReady = false
    } else if case .afterEntries(let count) = sleep, count > 1 {
      sleep = .afterEntries(count - 1)
    }
  }
}
