import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `player-sim` in a child process of its own and reads the
/// child's peak resident memory from `wait4`: the memory of one run, measured
/// by the kernel, unaffected by the tests running in parallel in this process.
enum PeakMemory {
  /// Whether peak memory can be measured here (Linux: `wait4` and `posix_spawn`
  /// as Glibc declares them), and means something: not in a sanitizer build
  /// (`.ci/sanitizers` sets `PLAYHEAD_SANITIZER`), whose shadow memory and
  /// quarantine of freed blocks add tens of megabytes that the input did not.
  #if os(Linux)
    static let isSupported = ProcessInfo.processInfo.environment["PLAYHEAD_SANITIZER"] == nil
  #else
    static let isSupported = false
  #endif

  struct Run {
    var status: Int32
    /// The child's peak resident set, in bytes.
    var peakBytes: Int
  }

  struct SpawnFailed: Error, CustomStringConvertible {
    var code: Int32
    var description: String { "posix_spawn failed with \(code)" }
  }

  /// Runs `player-sim arguments…` with standard output and error discarded.
  static func run(_ arguments: [String]) throws -> Run {
    #if os(Linux)
      return try spawn(arguments)
    #else
      throw SpawnFailed(code: -1)
    #endif
  }

  #if os(Linux)
    private static func spawn(_ arguments: [String]) throws -> Run {
      guard let binary = CLI.binary else { throw CLI.MissingBinary() }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      let code = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
      guard code == 0 else { throw SpawnFailed(code: code) }
      var status: Int32 = 0
      var usage = rusage()
      while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
      // The exit status is bits 8-15 when the low 7 bits (the signal) are 0.
      let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
      // ru_maxrss is in kilobytes on Linux.
      return Run(status: exit, peakBytes: Int(usage.ru_maxrss) * 1024)
    }
  #endif

  /// How many bytes a run of `script` takes beyond a run of a one-line
  /// script, per byte of `script`: the figure docs/player-sim.md bounds.
  static func extraBytesPerInputByte(_ arguments: [String], script: String) throws -> (
    status: Int32, perByte: Double, extra: Int
  ) {
    let small = try CLI.scratchFile("small.play", Data("media A\n".utf8))
    let large = try CLI.scratchFile("large.play", Data(script.utf8))
    let baseline = try run(arguments + [small])
    let measured = try run(arguments + [large])
    let extra = max(0, measured.peakBytes - baseline.peakBytes)
    return (measured.status, Double(extra) / Double(script.utf8.count), extra)
  }
}
