import PlayerEngine
import PlayerState

/// The engine adapter: translates Playhead's commands into the backend's
/// calls, and the backend's callbacks into reports that carry the load.
///
/// The whole trick is in `load`: the load (item and token) is captured by
/// the backend's completion closure, so the callback says *which* load it is
/// about. The adapter decides nothing: it never starts playback by itself,
/// it only reports what happened; the Player decides what to do next.
final class BackendEngine: PlaybackEngine {
  /// What the adapter knows of each load it was told about and not stopped.
  private enum Slot {
    case opening
    case open(FakeBackend.Item)
  }

  private let backend: FakeBackend
  private let slots = Protected<[Load: Slot]>([:])

  init(backend: FakeBackend) {
    self.backend = backend
  }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request):
      let load = request.load
      slots.withLock { $0[load] = .opening }
      backend.open(request.media.rawValue) { [self] result in
        switch result {
        case .success(let item):
          // Stopped while opening: close the item, report nothing.
          let wanted = slots.withLock { slots in
            guard slots[load] != nil else { return false }
            slots[load] = .open(item)
            return true
          }
          guard wanted else { return backend.close(item) }
          guard request.start > .zero else { return reports.send(.ready(load)) }
          // A load from a start position: ready once the backend is there.
          backend.seek(item, to: Int(clamping: request.start.milliseconds)) {
            reports.send(.ready(load))
          }
        case .failure:
          if slots.withLock({ $0[load] != nil }) { reports.send(.failed(load, .notFound)) }
        }
      }
    case .preload, .setRate, .setVolume:
      // Never sent: this adapter declares no capability (no `.preload`), and
      // the machine sends `setRate` only after a `setRate` intent and
      // `setVolume` only after a volume intent or a duck; the demo sends neither.
      break
    case .start(let load, _):
      guard let item = item(of: load) else { return }
      backend.play(item) { reports.send(.reachedEnd(load)) }
    case .pause(let load):
      guard let item = item(of: load) else { return }
      backend.pause(item)
    case .seek(let load, let time, let seek):
      guard let item = item(of: load) else { return }
      backend.seek(item, to: Int(clamping: time.milliseconds)) {
        reports.send(.seekCompleted(load, seek))
      }
    case .stop(let load):
      // Commands for loads already stopped (or never loaded) find no slot: harmless.
      if case .open(let item) = slots.withLock({ $0.removeValue(forKey: load) }) {
        backend.close(item)
      }
    }
  }

  private func item(of load: Load) -> FakeBackend.Item? {
    guard case .open(let item) = slots.withLock({ $0[load] }) else { return nil }
    return item
  }
}
