import Foundation
import MallocCounter

/// What the process holds in memory, as the OS and the C heap see it.
///
/// Resident sizes come from `/proc/self/status` (Linux); the peak can be
/// reset through `/proc/self/clear_refs`, so that one workload's peak is
/// measured alone. Heap bytes come from glibc's `mallinfo2`. Every reading
/// is nil where the platform does not offer it.
enum ProcessMemory {
  /// Bytes resident now (`VmRSS`).
  static func resident() -> Int? { statusField("VmRSS:") }

  /// The most bytes resident at once since the last ``resetPeak()`` (`VmHWM`).
  static func peakResident() -> Int? { statusField("VmHWM:") }

  /// Resets the resident peak to the current size; false if it cannot.
  @discardableResult
  static func resetPeak() -> Bool {
    #if os(Linux)
      // Writing 5 resets the peak resident size (Linux 4.0 and later).
      guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
      defer { try? handle.close() }
      do {
        try handle.write(contentsOf: Data("5".utf8))
        return true
      } catch {
        return false
      }
    #else
      return false
    #endif
  }

  /// Bytes the C heap has handed out and not taken back, or nil if unknown.
  static func heapInUse() -> Int? {
    let bytes = playhead_bench_heap_in_use()
    return bytes < 0 ? nil : Int(bytes)
  }

  /// Asks the C heap to return its free memory to the OS; false if it cannot.
  /// What stays resident after this is what the process still uses.
  @discardableResult
  static func trimHeap() -> Bool { playhead_bench_heap_trim() != 0 }

  private static func statusField(_ name: String) -> Int? {
    #if os(Linux)
      guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return nil
      }
      for line in text.split(separator: "\n") where line.hasPrefix(name) {
        // "VmRSS:	    1632 kB"
        let fields = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace)
        guard let value = fields.first.flatMap({ Int($0) }) else { return nil }
        return value * 1024
      }
      return nil
    #else
      return nil
    #endif
  }
}
