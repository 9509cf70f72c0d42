package import PlayerState

// Snapshot, restore and hand-off, from docs/machine.md ("Restore and hand-off",
// issue 24) and the rules `PlaybackSnapshot` documents, written without
// `PlaybackState.snapshot` or `PlaybackState(restoring:)`:
//
// - a snapshot is taken from one state: the queue's media in list order, the
//   shuffle's seed and play order, the current entry and its position from the
//   same step (the current load's last known position when the load is the
//   current entry's and has not ended; an ended entry is saved at 0; an idle
//   entry restored and not yet resumed keeps its saved position), repeat, rate
//   and the play intent;
// - a restore issues item ids 1…n in list order, rebuilds the play order and the
//   shuffle, is idle and paused, has issued no load, and sends nothing; it keeps
//   the saved entry and position as its resume point, when the position is past 0;
// - the first `resume` (and so `toggle`) that loads the saved entry while idle
//   loads it from the saved position; the resume point is forgotten as soon as a
//   load exists or another entry is current (used once, for its own entry only);
// - a hand-off stops the old engine's load and preload (the old player is left
//   idle and is sent nothing more), restores on the new engine, sends `resume`,
//   then `pause` when the user did not want to play: the new engine loads the
//   entry from its position and starts on `ready` only if the user wanted to play.

/// A restored entry's saved position, as the contract keeps it.
package struct ContractResumePoint: Hashable, Sendable {
  /// The entry (its item id in the restored queue).
  package var item: ItemID
  /// The saved position, in milliseconds (past 0); for a DVR stream, how far
  /// behind the live edge it was (``liveOffset``).
  package var position: Int64
  /// Whether ``position`` is an offset behind the live edge (ContractLive.swift).
  package var liveOffset = false
}

extension ContractModel {
  /// The snapshot the contract expects the player to give now.
  package var snapshot: PlaybackSnapshot {
    let list = shuffle?.list ?? entries
    var playOrder: [Int]?
    if shuffle != nil {
      var index: [ItemID: Int] = [:]
      for (offset, entry) in list.enumerated() { index[entry.item] = offset }
      playOrder = entries.map { index[$0.item] ?? -1 }
    }
    var saved: Int64 = 0
    var offset: Int64?
    if let at = position {
      let item = entries[at].item
      if let current, current.load.item == item {
        saved = current.stage == .ended ? 0 : current.position
        // Live: no position (a relaunch resumes at the edge); DVR: the offset
        // from the edge, while the window holds the position (ContractLive.swift).
        if let window = current.window, current.stage != .ended {
          if window.isSeekable, window.contains(.milliseconds(saved)) {
            offset = window.end.milliseconds - saved
          }
          saved = 0
        }
      } else if let point = resumePoint, point.item == item {
        if point.liveOffset { offset = point.position } else { saved = point.position }
      }
    }
    return PlaybackSnapshot(
      media: list.map(\.media), shuffleSeed: shuffle?.seed, playOrder: playOrder,
      current: position, position: .milliseconds(saved), repeatMode: repeatMode, rate: rate,
      playWhenReady: playWhenReady, volume: volume, muted: muted,
      liveOffset: offset.map { .milliseconds($0) })
  }

  /// The model of a player restored from `snapshot` (a relaunch: a new
  /// process, a new engine, no load issued), set up like this one.
  /// - Parameter snapshot: a snapshot with no `PlaybackSnapshot.violation`.
  package func restored(from snapshot: PlaybackSnapshot) -> ContractModel {
    var model = ContractModel(
      canPreload: canPreload, retry: retry,
      previousThreshold: .milliseconds(previousThreshold), ducking: ducking,
      fade: .milliseconds(fade), crossfade: .milliseconds(crossfade))
    let list = snapshot.media.enumerated().map {
      Entry(item: ItemID(UInt32($0.offset + 1)), media: $0.element)
    }
    for entry in list { model.media[entry.item] = entry.media }
    if let seed = snapshot.shuffleSeed, let order = snapshot.playOrder {
      model.entries = order.map { list[$0] }
      model.shuffle = (seed, list)
    } else {
      model.entries = list
    }
    model.position = snapshot.current
    model.repeatMode = snapshot.repeatMode
    model.rate = snapshot.rate
    model.issuedItems = UInt32(list.count)
    model.playWhenReady = false
    if let at = snapshot.current, let offset = snapshot.liveOffset {
      model.resumePoint = ContractResumePoint(
        item: model.entries[at].item, position: offset.milliseconds, liveOffset: true)
    } else if let at = snapshot.current, snapshot.position > .zero {
      model.resumePoint = ContractResumePoint(
        item: model.entries[at].item, position: snapshot.position.milliseconds)
    }
    model.interrupted = false
    // The user's volume and mute are kept; a duck is the old process's (system
    // state, as an interruption).
    model.volume = snapshot.volume
    model.muted = snapshot.muted
    model.ducked = false
    return model
  }

  /// The post-pass of every accepted event: the resume point is forgotten
  /// once a load exists or another entry is current.
  mutating func forgetResumePoint() {
    guard let point = resumePoint else { return }
    if current != nil || position.map({ entries[$0].item }) != point.item { resumePoint = nil }
  }

  /// Where `resume` loads the current entry from while idle: the saved
  /// position of a restored entry, else 0.
  var resumeFrom: Int64 {
    guard let point = resumePoint, let at = position, entries[at].item == point.item,
      !point.liveOffset
    else { return 0 }
    return point.position
  }

  /// How far behind the live edge `resume` loads the current entry from while
  /// idle: a restored DVR entry's offset, else nil.
  var resumeLiveOffset: Int64? {
    guard let point = resumePoint, let at = position, entries[at].item == point.item,
      point.liveOffset
    else { return nil }
    return point.position
  }

  /// A hand-off: the old player (this model) is stopped, and a player
  /// restored from its snapshot on the new engine is given the sleep timer if
  /// it stops at an entry's end, then resumes with the intent kept. Appends the old engine's commands to `old` and the new one's to `new`.
  /// - Returns: the old model after its stop, and the new model after the resume (and pause).
  package func handedOff(
    old: inout [EngineCommand], new: inout [EngineCommand]
  ) -> (old: ContractModel, new: ContractModel) {
    let snapshot = snapshot
    var before = self
    before.apply(.stop, commands: &old)
    var after = restored(from: snapshot)
    // A stop at an entry's end moves with playback; a countdown stays with the old clock.
    if let timer = sleep, !timer.isCountdown {
      after.apply(.user(.setSleepTimer(timer)), commands: &new)
    }
    if snapshot.current != nil {
      after.apply(.resume, commands: &new)
      if !snapshot.playWhenReady { after.apply(.pause, commands: &new) }
    }
    return (before, after)
  }

  /// The contract's model after `action` (a snapshot changes nothing).
  /// - Parameter commands: where the commands a hand-off sends go (both engines', in order).
  package mutating func apply(_ action: FuzzLifecycle, commands: inout [EngineCommand]) {
    switch action {
    case .snapshot: break
    case .relaunch: self = restored(from: snapshot)
    case .handoff:
      var old: [EngineCommand] = []
      var new: [EngineCommand] = []
      self = handedOff(old: &old, new: &new).new
      commands += old
      commands += new
    }
  }

  /// The first part of `snapshot` that differs from the contract's, in words;
  /// nil when they agree.
  package func snapshotDifference(_ said: PlaybackSnapshot) -> String? {
    let expected = snapshot
    func words(_ field: String, _ player: Any, _ contract: Any) -> String {
      "snapshot's \(field): the player's \(player), the contract's \(contract)"
    }
    if said.current != expected.current {
      return words(
        "current entry", said.current.map(String.init) ?? "none",
        expected.current.map(String.init) ?? "none")
    }
    if said.position != expected.position {
      return words("position", said.position, expected.position)
    }
    if said.media != expected.media {
      return words(
        "media", said.media.map(\.description).joined(separator: " "),
        expected.media.map(\.description).joined(separator: " "))
    }
    if said.shuffleSeed != expected.shuffleSeed || said.playOrder != expected.playOrder {
      return words(
        "shuffle", "\(said.shuffleSeed.map(String.init) ?? "none") \(said.playOrder ?? [])",
        "\(expected.shuffleSeed.map(String.init) ?? "none") \(expected.playOrder ?? [])")
    }
    if said.repeatMode != expected.repeatMode {
      return words("repeat", said.repeatMode.rawValue, expected.repeatMode.rawValue)
    }
    if said.rate != expected.rate { return words("rate", said.rate, expected.rate) }
    if said.playWhenReady != expected.playWhenReady {
      return words("playWhenReady", said.playWhenReady, expected.playWhenReady)
    }
    if said.volume != expected.volume { return words("volume", said.volume, expected.volume) }
    if said.muted != expected.muted { return words("muted", said.muted, expected.muted) }
    return nil
  }
}
