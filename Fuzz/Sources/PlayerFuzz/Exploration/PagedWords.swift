#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much of a search's bookkeeping a search keeps in memory: the rows of
/// the states it has extended beyond ``residentBytes`` go to a temporary
/// file, in pages (TLC's disk-backed queue and its states on disk), and at
/// most ``keptRunners`` runners wait at states found but not yet extended.
package struct SearchMemory: Sendable, Equatable {
  /// The bytes of rows kept in memory (the newest pages); older pages are
  /// written to a temporary file (removed as it is made: nothing stays
  /// behind, even if the process is killed) and read back when a row is
  /// asked for. 0 writes every full page out.
  package var residentBytes: Int
  /// The size of a page of rows, in bytes (a row never straddles two).
  package var pageBytes: Int
  /// The most runners kept at states found and not yet extended (each a
  /// player, an engine and a contract model: about 15 KB), restored instead
  /// of replayed when the state is extended.
  package var keptRunners: Int

  /// The default: 1 MB of rows in memory in pages of 64 KB, and 256 runners (about 4 MB).
  /// A runner kept saves the replay of a path (about a tenth of what extending the state
  /// costs); a row in memory, a `pread` when the differential check reads it.
  package static let standard = SearchMemory(
    residentBytes: 1 << 20, pageBytes: 64 << 10, keptRunners: 256)

  /// - Parameters:
  ///   - residentBytes: rows kept in memory, in bytes.
  ///   - pageBytes: a page's size, at least 2 KB (a page is made larger if a row needs it).
  ///   - keptRunners: the most runners kept for the frontier.
  package init(residentBytes: Int, pageBytes: Int, keptRunners: Int) {
    self.residentBytes = max(0, residentBytes)
    self.pageBytes = max(2_048, pageBytes)
    self.keptRunners = max(0, keptRunners)
  }
}

/// Rows of 32-bit words, appended in order and each kept within one page; the
/// newest pages in memory, the older ones in a temporary file once they
/// outgrow ``SearchMemory/residentBytes``. A row of a page on file is read
/// back with one `pread` into a one-row cache.
///
/// A reference type: ``SearchRows`` reads through it from non-mutating
/// methods, and one search on one thread owns it.
final class PagedWords {
  private let pageWords: Int
  private let residentPages: Int
  /// Every page; the first ``spilled`` are on file (their arrays empty).
  private var pages: [[UInt32]] = [[]]
  private var spilled = 0
  /// The file's descriptor, -1 until the first page is written out.
  private var file: Int32 = -1
  /// Whether the file could not be made or written: then every page stays in memory.
  private var unwritable = false
  /// The row last read from the file: its start, and its words.
  private var cachedStart = -1
  private var cached: [UInt32] = []

  /// - Parameters:
  ///   - memory: the page size and how many bytes of pages stay in memory.
  ///   - longestRow: the most words a row can have (a page holds at least one).
  init(_ memory: SearchMemory, longestRow: Int) {
    pageWords = max(memory.pageBytes / 4, longestRow, 1)
    residentPages = memory.residentBytes / (pageWords * 4)
  }

  deinit {
    if file >= 0 { close(file) }
  }

  /// How many pages are on file.
  var pagesOnFile: Int { spilled }

  /// Appends `words` as one row, and returns where it starts (a word index over every page).
  func append(_ words: [UInt32]) -> Int {
    if pages[pages.count - 1].count + words.count > pageWords {
      pages.append([])
      pages[pages.count - 1].reserveCapacity(pageWords)
      spillIfNeeded()
    }
    let page = pages.count - 1
    let start = page * pageWords + pages[page].count
    pages[page] += words
    return start
  }

  /// Calls `body` with the `count` words from `start` (within one row, as ``append(_:)`` gave it).
  func withWords<Result>(
    _ start: Int, _ count: Int, _ body: (UnsafeBufferPointer<UInt32>) -> Result
  ) -> Result {
    let page = start / pageWords
    let offset = start % pageWords
    if page >= spilled {
      return pages[page].withUnsafeBufferPointer {
        body(UnsafeBufferPointer(rebasing: $0[offset..<offset + count]))
      }
    }
    if cachedStart != start || cached.count != count { readBack(start, count) }
    return cached.withUnsafeBufferPointer(body)
  }

  /// Writes the oldest full pages out while more than ``residentPages`` are in memory.
  private func spillIfNeeded() {
    // The last page is being filled; the full ones before it may go.
    while !unwritable, pages.count - 1 - spilled > residentPages {
      guard write(page: spilled) else {
        unwritable = true
        return
      }
      pages[spilled] = []
      spilled += 1
    }
  }

  private func write(page: Int) -> Bool {
    if file < 0 {
      file = Self.temporaryFile()
      guard file >= 0 else { return false }
    }
    var words = pages[page]
    // A short page (the next row did not fit) is written whole, so offsets stay page × size.
    if words.count < pageWords { words += repeatElement(0, count: pageWords - words.count) }
    let bytes = pageWords * 4
    return words.withUnsafeBytes { buffer in
      // A page is at least one word long, so the buffer has an address.
      guard let base = buffer.baseAddress else { return false }
      var done = 0
      while done < bytes {
        let wrote = pwrite(file, base + done, bytes - done, off_t(page * bytes + done))
        if wrote <= 0 { return false }
        done += wrote
      }
      return true
    }
  }

  private func readBack(_ start: Int, _ count: Int) {
    cached = [UInt32](repeating: 0, count: count)
    let bytes = count * 4
    let read = cached.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      var done = 0
      while done < bytes {
        let got = pread(file, base + done, bytes - done, off_t(start * 4 + done))
        if got <= 0 { return done }
        done += got
      }
      return done
    }
    guard read == bytes || bytes == 0 else {
      preconditionFailure(
        "the explorer's row file could not be read back (\(read) of \(bytes) bytes at word "
          + "\(start), errno \(errno)): was its temporary directory removed?")
    }
    cachedStart = start
  }

  /// A new file in `TMPDIR` (else /tmp), already unlinked: it goes when it is closed.
  private static func temporaryFile() -> Int32 {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((directory + "/playhead-explore-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { return -1 }
    template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
    return descriptor
  }
}
