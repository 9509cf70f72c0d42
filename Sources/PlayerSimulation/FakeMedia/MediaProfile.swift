public import PlayerState

/// How a piece of fake media behaves in the ``FakeMediaEngine``: how long it
/// buffers, how long it lasts, whether it stalls or fails, and how long seeks take.
///
/// Every time is virtual: it passes only when the ``VirtualClock`` is advanced.
///
/// ```swift
/// var slow = MediaProfile(readyAfter: .milliseconds(300), duration: .seconds(5))
/// slow.stallAt = .seconds(2)          // rebuffer once, 2 s into the media…
/// slow.stallFor = .milliseconds(500)  // …for half a second
/// ```
public struct MediaProfile: Hashable, Sendable {
  /// Time from `load` to the `ready` report.
  public var readyAfter: Duration
  /// Length of the media; playing past it reports `reachedEnd`.
  public var duration: Duration
  /// Position in the media at which playback stalls once, or nil for never.
  public var stallAt: Duration?
  /// How long the stall lasts before `resumed` is reported.
  public var stallFor: Duration
  /// Time from `load` after which the load fails, or nil for never.
  public var failAfter: Duration?
  /// The reason reported when the load fails.
  public var failureReason: FailureReason
  /// Time from `seek` to its `seekCompleted` report.
  public var seekLatency: Duration
  /// How often a playing load reports its position, or nil (the default) for never.
  public var positionEvery: Duration?
  /// Whether `ready` carries the duration (`ready(A#1, duration 10000ms)`); false by default.
  public var reportsDuration: Bool
  /// Time from the first `load` (or `preload`) of this media under this
  /// profile after which the fake network goes down, or nil (the default) for
  /// never. The drop fails every load in flight, whatever its media, with
  /// `network` and ``FakeMediaEngine/offline`` as the engine's error, and
  /// sends `network lost` through the player; loads issued while it is down
  /// fail the same way after ``readyAfter``. Once per profile: reloads of the
  /// media do not drop it again.
  public var networkDropAt: Duration?
  /// How long the network stays down after ``networkDropAt``; then it is back
  /// and `network available` is sent through the player. 5 s by default.
  public var networkBackAfter: Duration
  /// How the media is live (``LiveProfile``), or nil (the default) for on-demand
  /// media. A live media has no ``duration``: it reports a window that slides with the
  /// virtual clock, starts at its live edge, never plays past it, and ends only at
  /// ``LiveProfile/endsAt``. Its report interval is ``positionEvery``.
  public var live: LiveProfile?

  /// A profile; the defaults are those of media a script never describes.
  /// - Parameters:
  ///   - readyAfter: time from `load` to `ready`; 200 ms by default.
  ///   - duration: length of the media; 10 s by default.
  ///   - stallAt: position of a single stall, or nil (the default) for none.
  ///   - stallFor: how long the stall lasts; 1 s by default.
  ///   - failAfter: time from `load` to a failure, or nil (the default) for none.
  ///   - failureReason: the failure's reason; `network` by default.
  ///   - seekLatency: time from `seek` to its completion; 50 ms by default.
  ///   - positionEvery: the interval of position reports while playing, or nil (the default).
  ///   - reportsDuration: whether `ready` carries the duration; false by default.
  ///   - networkDropAt: time from the first load to a drop of the fake network, or nil (the default).
  ///   - networkBackAfter: how long the network stays down; 5 s by default.
  ///   - live: how the media is live, or nil (the default) for on-demand media.
  public init(
    readyAfter: Duration = .milliseconds(200), duration: Duration = .seconds(10),
    stallAt: Duration? = nil, stallFor: Duration = .seconds(1), failAfter: Duration? = nil,
    failureReason: FailureReason = .network, seekLatency: Duration = .milliseconds(50),
    positionEvery: Duration? = nil, reportsDuration: Bool = false,
    networkDropAt: Duration? = nil, networkBackAfter: Duration = .seconds(5),
    live: LiveProfile? = nil
  ) {
    self.live = live
    self.networkDropAt = networkDropAt
    self.networkBackAfter = networkBackAfter
    self.positionEvery = positionEvery
    self.reportsDuration = reportsDuration
    self.readyAfter = readyAfter
    self.duration = duration
    self.stallAt = stallAt
    self.stallFor = stallFor
    self.failAfter = failAfter
    self.failureReason = failureReason
    self.seekLatency = seekLatency
  }

  /// The profile of media nobody described: ready after 200 ms, 10 s long,
  /// no stall, no failure, seeks take 50 ms, no position reports, no duration
  /// with `ready`, no network drop.
  public static let standard = MediaProfile()
}
