import PlayerState

// What the engine of a case with ``FuzzFeatures/live`` reports about live
// and DVR streams (issue 38), chosen relative to the model so that the rules
// fire: media `C` is live without DVR (a window of zero length at the edge),
// `D` has a DVR window; others are on demand (the engine sends them a window
// only as hostile noise). A window moves forward with time, slides past a
// paused position, shrinks, jumps back, or is the engine's bad one.
extension ActionDecoder {
  /// The DVR window's length the engine of a case reports, in milliseconds.
  static let dvrLength: Int64 = 60_000
  /// Where the live edge is when a load first reports its window, in milliseconds.
  static let firstEdge: Int64 = 120_000

  /// What the engine says `media` is: `C` live without DVR, `D` with a DVR
  /// window, the others on demand.
  static func kind(of media: MediaID?) -> StreamKind {
    switch media {
    case "C": .live
    case "D": .dvr
    default: .onDemand
    }
  }

  /// The kind of the media `load` plays, by its item.
  static func kind(of load: Load, _ model: ContractModel) -> StreamKind {
    kind(of: model.media[load.item])
  }

  /// A window report about `load`: a later window of the current load's when
  /// it has one (moved on, slid past its position, shrunk, jumped back, the
  /// same, grown, or a bad one with `invalid` on), otherwise a first window
  /// for the load's kind (on-demand media get either kind's).
  static func window(
    for load: Load, _ model: ContractModel, _ byte: UInt8, invalid: Bool
  ) -> LiveWindow {
    if let current = model.current, current.load == load, let known = current.window {
      return later(known, position: current.position, byte, invalid: invalid)
    }
    var kind = kind(of: load, model)
    if kind == .onDemand { kind = byte & 1 == 0 ? .dvr : .live }
    let position = model.current?.load == load ? model.current?.position ?? 0 : 0
    return first(kind, position: position, byte >> 1)
  }

  /// A load's first window: at 120 s for live; for DVR 60 s to 120 s, one
  /// that holds the load's position, or one that has left it.
  static func first(_ kind: StreamKind, position: Int64, _ byte: UInt8) -> LiveWindow {
    if kind == .live { return window(firstEdge, firstEdge) }
    switch byte % 4 {
    case 0: return window(max(position - 1_000, 0), max(position - 1_000, 0) + dvrLength)
    case 1: return window(position + 1_000, position + 1_000 + dvrLength)
    default: return window(firstEdge - dvrLength, firstEdge)
    }
  }

  /// A later window after `known`: moved on by 5 s, slid by a whole DVR
  /// length (past a paused position), shrunk to its second half, jumped back
  /// by 30 s, unchanged, grown by 10 s at the edge, moved on by 1 s; the
  /// engine's bad window (a start below 0, an edge behind the start) with
  /// `invalid` on.
  static func later(
    _ known: LiveWindow, position: Int64, _ byte: UInt8, invalid: Bool
  ) -> LiveWindow {
    let start = known.start.milliseconds
    let end = known.end.milliseconds
    switch byte % 8 {
    case 0, 1: return window(start + 5_000, end + 5_000)
    case 2: return window(start + dvrLength, end + dvrLength)
    case 3: return window(start + (end - start) / 2, end)
    case 4:
      let back = min(start, 30_000)
      return window(start - back, end - back)
    case 5: return known
    case 6:
      guard invalid else { return window(start + 1_000, end + 1_000) }
      return byte & 8 == 0 ? window(-1_000, end) : window(end, end - 1_000)
    default: return window(start, end + 10_000)
    }
  }

  /// A position report's time for a load with a known window: inside it, at
  /// the edge, just behind the edge, behind the start, or past the edge.
  static func reportedTime(in window: LiveWindow, _ byte: UInt8) -> Int64 {
    let start = window.start.milliseconds
    let end = window.end.milliseconds
    switch byte % 5 {
    case 0: return start + (end - start) / 2
    case 1: return end
    case 2: return max(end - 1_000, 0)
    case 3: return max(start - 1_000, 0)
    default: return end + 1_000
    }
  }

  /// A seek's time for a load with a known window: past the edge, behind the
  /// start, inside it, at the edge.
  static func seekTime(in window: LiveWindow, _ byte: UInt8) -> Int64 {
    let start = window.start.milliseconds
    let end = window.end.milliseconds
    switch byte % 4 {
    case 0: return end + 5_000
    case 1: return max(start - 5_000, 0)
    case 2: return start + (end - start) / 3
    default: return end
    }
  }

  /// The window `start…end`, in milliseconds.
  static func window(_ start: Int64, _ end: Int64) -> LiveWindow {
    LiveWindow(start: .milliseconds(start), end: .milliseconds(end))
  }

  /// What a cooperative live engine (or user) does next, or nil: the first
  /// window of a live media's load (buffering or ready), a preload's window,
  /// a later window, `goToLive`, a position report around the window, the
  /// engine's `failed(behindLiveWindow)`.
  func cooperativeLive(_ model: ContractModel, _ detail: UInt8, _ extra: UInt8) -> FuzzAction? {
    guard features.contains(.live) else { return nil }
    if let preload = model.preload, preload.stage != .failed,
      Self.kind(of: preload.load, model) != .onDemand, detail & 7 == 5
    {
      let kind = Self.kind(of: preload.load, model)
      return .send(.window(preload.load, Self.first(kind, position: 0, extra)))
    }
    guard let current = model.current else { return nil }
    let kind = Self.kind(of: current.load, model)
    switch current.stage {
    case .buffering where current.window == nil && kind != .onDemand && detail & 4 != 0,
      .ready where current.window == nil && kind != .onDemand && detail & 3 != 3:
      return .send(.window(current.load, Self.first(kind, position: current.position, extra)))
    case .ready where current.window != nil, .stalled where current.window != nil:
      guard let window = current.window else { return nil }
      switch detail >> 2 & 7 {
      case 0, 1, 2:
        let later = Self.later(window, position: current.position, extra, invalid: false)
        return .send(.window(current.load, later))
      case 3:
        return .send(.position(current.load, .milliseconds(Self.reportedTime(in: window, extra))))
      case 4: return .send(.user(.goToLive))
      case 5 where extra & 3 == 0: return .send(.failed(current.load, .behindLiveWindow))
      default: return nil
      }
    default: return nil
    }
  }
}
