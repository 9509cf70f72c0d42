// The sleep timer: a countdown with its own id, or a stop at the end of an
// entry. At most one is armed (`sleepTimer`). The countdown's clock is the
// driver's (a `SleepTimerRequest`, like a watchdog); the stop at an entry's
// end is taken by QueueNavigation's `reachEnd`, and the Preloader preloads
// nothing while one is due, so no engine rolls into the next entry by itself.

extension PlaybackState {
  /// `setSleepTimer`: arms a timer in place of any armed one, or turns it off.
  /// A countdown takes a new id, so the expiry of the one it replaces is stale.
  mutating func setSleepTimer(_ timer: SleepTimer?, _ effects: inout Effects) -> IgnoreReason? {
    guard let timer else {
      guard sleepTimer != nil else { return .noEffect }
      sleepTimer = nil
      return nil
    }
    guard timer.violation == nil else { return .invalidArgument }
    guard case .after(let delay) = timer else {
      // A live entry has no end to stop at.
      if session?.window != nil { return .liveStream }
      guard timer != sleepTimer else { return .noEffect }
      sleepTimer = timer
      return nil
    }
    guard issuedSleepTimers < UInt32.max else { return .idsExhausted }
    issuedSleepTimers += 1
    sleepTimer = timer
    effects.sleepTimer = SleepTimerRequest(id: SleepTimerID(issuedSleepTimers), delay: delay)
    return nil
  }

  /// A countdown ran out: only the armed one counts. It pauses as the user
  /// would (nothing while idle or already paused) and is disarmed.
  mutating func expireSleepTimer(_ id: SleepTimerID, _ effects: inout Effects) -> IgnoreReason? {
    guard case .after = sleepTimer, id.rawValue == issuedSleepTimers, id.rawValue != 0 else {
      return .staleWatchdog
    }
    sleepTimer = nil
    if session != nil, playWhenReady { _ = pause(fading: true, &effects) }
    return nil
  }

  /// Whether the armed timer stops playback at the end of the current entry:
  /// at the end of any entry, of the last of its count, or of the last in play order.
  var sleepStopsAtCurrentEnd: Bool {
    // The stored form, read as it is: the preloader asks on every step.
    switch storedSleepTimer {
    case .endOfEntry, .afterEntries(1): true
    case .endOfQueue: queue.current == queue.entries.count - 1
    case .after, .afterEntries, nil: false
    }
  }

  /// Counts a natural end of the current entry: the timer that stops there
  /// is disarmed and the intent becomes pause; a count of entries goes down by one.
  mutating func countSleepTimerEnd(stopping: Bool) {
    if stopping {
      sleepTimer = nil
      playWhenReady = false
    } else if case .afterEntries(let count) = storedSleepTimer, count > 1 {
      storedSleepTimer = .afterEntries(count - 1)
    }
  }
}
