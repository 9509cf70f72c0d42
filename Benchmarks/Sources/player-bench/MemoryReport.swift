import Foundation

/// Turns ``MemoryFigures`` into table lines and JSON fields (the keys are
/// listed in Benchmarks/README.md).
enum MemoryReport {
  static func table(_ memory: MemoryFigures) -> String {
    var lines: [String] = []
    lines.append(
      "memory (heap: glibc mallinfo2 in-use bytes; resident: /proc/self/status; deltas over the "
        + "baseline just before):")
    lines.append(
      "  sizes in bytes, size (stride): "
        + memory.sizes.map { "\($0.name) \($0.size) (\($0.stride))" }.joined(separator: ", "))
    let burst = memory.burst
    lines.append(
      "  queue, burst of \(Report.grouped(burst.events)) events queued at once: heap "
        + bytes(burst.heapAtPeak) + " at peak ("
        + perElement(burst.heapAtPeak, burst.events) + " per queued event, capacity "
        + Report.grouped(burst.capacityAtPeak) + "); after drain " + bytes(burst.heapAfterDrain)
        + ", capacity \(burst.capacityAfterDrain) (kept: at most \(memory.retainedCapacity))"
        + (burst.processed == UInt64(burst.events + 1) ? "" : "; LOST EVENTS"))
    let steady = memory.steady
    lines.append(
      "  queue, the same burst, then a backlog held at \(steady.backlog) for "
        + "\(Report.grouped(steady.refills)) events: capacity "
        + Report.grouped(steady.capacityAtPeak)
        + " at peak, at most \(Report.grouped(steady.capacityInSteadyState)) over the last half "
        + "(never fewer than \(steady.queuedInSteadyState) queued), heap "
        + bytes(steady.heapInSteadyState)
        + (steady.processed == UInt64(steady.peak + 1 + steady.refills) ? "" : "; LOST EVENTS"))
    let flood = memory.flood
    let lost = UInt64(flood.sends) - min(UInt64(flood.sends), flood.processed)
    lines.append(
      "  queue, \(flood.threads) threads x \(Report.grouped(flood.sends / max(flood.threads, 1))) "
        + "sends: at most \(Report.grouped(flood.maxQueued)) queued, resident peak "
        + bytes(flood.peakResident) + " (" + perElement(flood.peakResident, flood.maxQueued)
        + " per queued event); after drain: resident " + bytes(flood.residentAfterDrain)
        + " (" + bytes(flood.residentAfterTrim) + " after malloc_trim), heap "
        + bytes(flood.heapAfterDrain) + ", capacity \(flood.capacityAfterDrain); "
        + (lost == 0 ? "0 lost" : "\(Report.grouped(Int(lost))) LOST"))
    lines.append(
      "  a subscriber that never reads (default policy: the newest "
        + "\(memory.defaultBufferLimit) kept):")
    for subscriber in memory.subscribers {
      lines.append(
        "    " + subscriber.stream.padding(toLength: 8, withPad: " ", startingAt: 0)
          + subscriber.policy.padding(toLength: 10, withPad: " ", startingAt: 0)
          + "\(Report.grouped(subscriber.buffered)) of \(Report.grouped(subscriber.published)) "
          + "buffered, heap " + bytes(subscriber.heapWhileBuffered) + " ("
          + (subscriber.bytesPerElement.map { String(format: "%.0f B", $0) } ?? "n/a")
          + " per element); after cancel " + bytes(subscriber.heapAfterCancel))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The memory figures alone, as one JSON object (`--memory --json`).
  static func json(_ memory: MemoryFigures) -> String {
    let body = fields(memory).map { "  \"\($0.0)\": \($0.1)" }
    return "{\n" + body.joined(separator: ",\n") + "\n}\n"
  }

  static func fields(_ memory: MemoryFigures) -> [(String, String)] {
    func optional(_ value: Int?) -> String { value.map { "\($0)" } ?? "null" }
    let burst = memory.burst
    let flood = memory.flood
    var fields: [(String, String)] = [
      ("event_stride_bytes", "\(memory.sizes[0].stride)"),
      ("state_stride_bytes", "\(memory.sizes[1].stride)"),
      ("step_stride_bytes", "\(memory.sizes[2].stride)"),
      ("ignored_report_stride_bytes", "\(memory.sizes[3].stride)"),
      ("queue_retained_capacity", "\(memory.retainedCapacity)"),
      ("queue_burst_events", "\(burst.events)"),
      (
        "queue_burst_lost_events",
        "\(UInt64(burst.events + 1) - min(UInt64(burst.events + 1), burst.processed))"
      ),
      ("queue_burst_peak_heap_bytes", optional(burst.heapAtPeak)),
      (
        "queue_burst_bytes_per_event",
        burst.heapAtPeak.map { Report.number(Double($0) / Double(burst.events)) } ?? "null"
      ),
      ("queue_burst_peak_capacity", "\(burst.capacityAtPeak)"),
      ("queue_burst_heap_after_drain_bytes", optional(burst.heapAfterDrain)),
      ("queue_burst_capacity_after_drain", "\(burst.capacityAfterDrain)"),
      ("queue_steady_backlog", "\(memory.steady.backlog)"),
      ("queue_steady_refills", "\(memory.steady.refills)"),
      ("queue_steady_peak_capacity", "\(memory.steady.capacityAtPeak)"),
      ("queue_steady_capacity", "\(memory.steady.capacityInSteadyState)"),
      ("queue_steady_min_queued", "\(memory.steady.queuedInSteadyState)"),
      ("queue_steady_heap_bytes", optional(memory.steady.heapInSteadyState)),
      ("queue_flood_threads", "\(flood.threads)"),
      ("queue_flood_sends", "\(flood.sends)"),
      (
        "queue_flood_lost_events",
        "\(UInt64(flood.sends) - min(UInt64(flood.sends), flood.processed))"
      ),
      ("queue_flood_max_queued", "\(flood.maxQueued)"),
      ("queue_flood_peak_resident_bytes", optional(flood.peakResident)),
      ("queue_flood_resident_after_drain_bytes", optional(flood.residentAfterDrain)),
      ("queue_flood_resident_after_trim_bytes", optional(flood.residentAfterTrim)),
      ("queue_flood_heap_after_drain_bytes", optional(flood.heapAfterDrain)),
      ("queue_flood_capacity_after_drain", "\(flood.capacityAfterDrain)"),
      ("stream_default_buffer_limit", "\(memory.defaultBufferLimit)"),
    ]
    for subscriber in memory.subscribers {
      let key = "stream_\(subscriber.stream)_\(subscriber.policy)"
      fields.append((key + "_published", "\(subscriber.published)"))
      fields.append((key + "_buffered", "\(subscriber.buffered)"))
      fields.append((key + "_heap_bytes", optional(subscriber.heapWhileBuffered)))
      fields.append(
        (
          key + "_bytes_per_element",
          subscriber.bytesPerElement.map { Report.number($0.rounded()) } ?? "null"
        ))
      fields.append((key + "_heap_after_cancel_bytes", optional(subscriber.heapAfterCancel)))
    }
    return fields
  }

  private static func bytes(_ value: Int?) -> String {
    guard let value else { return "n/a" }
    let magnitude = Double(abs(value))
    let sign = value < 0 ? "-" : ""
    if magnitude >= 1_048_576 { return sign + String(format: "%.1f MB", magnitude / 1_048_576) }
    if magnitude >= 1024 { return sign + String(format: "%.1f KB", magnitude / 1024) }
    return "\(value) B"
  }

  private static func perElement(_ value: Int?, _ count: Int) -> String {
    guard let value, count > 0 else { return "n/a" }
    return String(format: "%.1f B", Double(value) / Double(count))
  }
}
