import PlayerState

/// How a live media behaves in the ``FakeMediaEngine`` (``MediaProfile/live``): a
/// broadcast whose live edge is the virtual clock's time, so the edge grows as the
/// clock is advanced, with or without a DVR window, and ending or not.
///
/// At virtual time `t` the edge `e` is `t` (or ``endsAt``, once the broadcast has
/// ended there), and the engine reports the window `e…e` without DVR, or
/// `max(0, e − dvrWindow)…e` with it: after `ready`, and then at the profile's
/// report interval (``MediaProfile/positionEvery``) whatever the load does, paused
/// included, so a paused load's window slides on past its position.
///
/// ```swift
/// var radio = MediaProfile()
/// radio.live = LiveProfile(dvrWindow: .seconds(60))   // `media L live window=60s`
/// ```
public struct LiveProfile: Hashable, Sendable {
  /// How far back the window reaches from the edge, or nil for a live stream
  /// without DVR (a window of zero length: nothing to seek in).
  public var dvrWindow: Duration?
  /// The virtual time at which the broadcast ends, or nil (the default) for a
  /// broadcast that never does. A load reports `reachedEnd` when its position
  /// reaches it; the edge stops there.
  public var endsAt: Duration?

  /// A live media.
  /// - Parameters:
  ///   - dvrWindow: the DVR window's length, or nil (the default) for none.
  ///   - endsAt: when the broadcast ends, or nil (the default) for never.
  public init(dvrWindow: Duration? = nil, endsAt: Duration? = nil) {
    self.dvrWindow = dvrWindow
    self.endsAt = endsAt
  }

  /// The live edge at virtual time `now`, in milliseconds: `now`, up to the end.
  func edge(at now: Int64) -> Int64 {
    let now = max(now, 0)
    guard let endsAt else { return now }
    return min(now, max(endsAt.wholeMilliseconds, 0))
  }

  /// The window at virtual time `now`: `e…e`, or `max(0, e − dvrWindow)…e`.
  func window(at now: Int64) -> LiveWindow {
    let edge = edge(at: now)
    let start = dvrWindow.map { max(0, edge - max($0.wholeMilliseconds, 0)) } ?? edge
    return LiveWindow(start: .milliseconds(start), end: .milliseconds(edge))
  }
}
