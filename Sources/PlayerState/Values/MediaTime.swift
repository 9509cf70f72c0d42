/// A point or a length *in the media*, in whole milliseconds: a position, a
/// media's duration, a skip's offset, a seek's target,
/// ``PlayerConfiguration/previousThreshold``.
///
/// Playhead has two kinds of time, and the type says which:
/// - `MediaTime` is time in the media. It moves with playback: at the rate
///   while playing, not at all while paused. `.seconds(90)` is "1:30 into the
///   track".
/// - Swift's `Duration` is wall-clock time, measured by a clock: the sleep
///   timer's countdown (``SleepTimer/after(_:)``), the retry backoffs
///   (``RetryPolicy``), the watchdog's timeouts. `.seconds(1800)` is "half an
///   hour from now", whatever the media does meanwhile.
///
/// The two convert both ways, to the millisecond:
///
/// ```swift
/// let position = MediaTime.seconds(90)            // 90000ms
/// let skip = MediaTime.seconds(1.5)               // 1500ms
/// let later = position + skip * 2                 // 93000ms
/// let elapsed = MediaTime(.milliseconds(2500))    // from a Duration: 2500ms
/// let wait: Duration = later.duration             // 93 seconds
/// let fromEngine = MediaTime.seconds(12.3456)     // an engine's Double seconds: 12346ms
/// print(fromEngine.seconds)                       // 12.346
/// ```
///
/// Every conversion and every operator is total: a value out of range
/// saturates at the largest or smallest number of milliseconds an `Int64`
/// holds, and a `Double` that is not a number gives ``zero``. Rounding is to
/// the nearest millisecond, halves away from zero.
///
/// Playhead keeps its own small type instead of `Duration` for media time so
/// that events stay small (8 bytes) and print exactly (`2000ms`).
public struct MediaTime: Hashable, Comparable, Sendable, Codable, AdditiveArithmetic,
  CustomStringConvertible
{
  /// The time in milliseconds.
  public let milliseconds: Int64

  /// A time in milliseconds.
  /// - Parameter milliseconds: any number of milliseconds; negative values
  ///   are allowed (a skip backwards).
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// The media time as long as a wall-clock duration, rounded to the nearest
  /// millisecond (halves away from zero: 1.5 ms gives 2 ms, −1.5 ms gives −2 ms).
  ///
  /// Total: a duration beyond what an `Int64` of milliseconds holds saturates.
  ///
  /// ```swift
  /// MediaTime(.seconds(2))              // 2000ms
  /// MediaTime(.microseconds(1500))      // 2ms
  /// ```
  /// - Parameter duration: any duration.
  public init(_ duration: Duration) {
    if duration >= .milliseconds(Int64.max) {
      milliseconds = .max
    } else if duration <= .milliseconds(Int64.min) {
      milliseconds = .min
    } else {
      // Safe: within ±Int64.max milliseconds the seconds fit an Int64, and
      // `components` truncates, so both parts carry the duration's sign.
      let (seconds, attoseconds) = duration.components
      let perMillisecond: Int64 = 1_000_000_000_000_000
      let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
      var total = seconds * 1000 + whole
      if rest >= perMillisecond / 2 {
        total += 1
      } else if rest <= -perMillisecond / 2 {
        total -= 1
      }
      milliseconds = total
    }
  }

  /// The same length as a wall-clock `Duration`, exactly.
  public var duration: Duration { .milliseconds(milliseconds) }

  /// The time in seconds, as engines such as AVFoundation report it
  /// (`12.346` for 12346 ms).
  public var seconds: Double { Double(milliseconds) / 1000 }

  /// A time in whole milliseconds; saturates instead of overflowing.
  /// - Parameter value: any integer.
  public static func milliseconds<T: BinaryInteger>(_ value: T) -> MediaTime {
    MediaTime(milliseconds: Int64(clamping: value))
  }

  /// A time in milliseconds: the `Int64` overload, so that `.milliseconds(.max)` compiles.
  /// - Parameter value: any number of milliseconds.
  public static func milliseconds(_ value: Int64) -> MediaTime { MediaTime(milliseconds: value) }

  /// A time in milliseconds, rounded to the nearest (halves away from zero);
  /// saturates, and gives ``zero`` for a value that is not a number.
  /// - Parameter value: any `Double`.
  public static func milliseconds(_ value: Double) -> MediaTime {
    guard !value.isNaN else { return .zero }
    let rounded = value.rounded(.toNearestOrAwayFromZero)
    // 2⁶³ is exact as a Double; Int64 holds −2⁶³ up to 2⁶³ − 1.
    if rounded >= 9_223_372_036_854_775_808.0 { return MediaTime(milliseconds: .max) }
    if rounded < -9_223_372_036_854_775_808.0 { return MediaTime(milliseconds: .min) }
    return MediaTime(milliseconds: Int64(rounded))
  }

  /// A time in whole seconds; saturates instead of overflowing.
  ///
  /// `.seconds(30)` takes this overload, as `Duration.seconds(30)` does.
  /// - Parameter value: any integer.
  public static func seconds<T: BinaryInteger>(_ value: T) -> MediaTime {
    MediaTime(milliseconds: Int64(clamping: value)) * 1000
  }

  /// A time in whole seconds: the `Int64` overload, so that `.seconds(.max)`
  /// compiles; saturates instead of overflowing.
  /// - Parameter value: any number of seconds.
  public static func seconds(_ value: Int64) -> MediaTime {
    MediaTime(milliseconds: value) * 1000
  }

  /// A time in seconds, such as an engine's `Double` position, rounded to the
  /// nearest millisecond (halves away from zero); saturates, and gives
  /// ``zero`` for a value that is not a number.
  ///
  /// ```swift
  /// MediaTime.seconds(1.5)        // 1500ms
  /// MediaTime.seconds(0.0004)     // 0ms
  /// ```
  /// - Parameter value: any `Double`.
  public static func seconds(_ value: Double) -> MediaTime {
    .milliseconds(value * 1000)
  }

  /// The start of the media; no length.
  public static let zero = MediaTime(milliseconds: 0)

  /// Orders times.
  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }

  /// The sum, saturating instead of overflowing.
  public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
    let (sum, overflow) = lhs.milliseconds.addingReportingOverflow(rhs.milliseconds)
    guard overflow else { return MediaTime(milliseconds: sum) }
    return MediaTime(milliseconds: rhs.milliseconds < 0 ? .min : .max)
  }

  /// The difference, saturating instead of overflowing.
  public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
    let (difference, overflow) = lhs.milliseconds.subtractingReportingOverflow(rhs.milliseconds)
    guard overflow else { return MediaTime(milliseconds: difference) }
    return MediaTime(milliseconds: rhs.milliseconds < 0 ? .max : .min)
  }

  /// The opposite time, as in `.skip(by: -.seconds(15))`; saturates (the
  /// opposite of the smallest time is the largest).
  public static prefix func - (time: MediaTime) -> MediaTime {
    .zero - time
  }

  /// The time `factor` times over, saturating instead of overflowing.
  /// - Parameters:
  ///   - time: any time.
  ///   - factor: any integer.
  public static func * <T: BinaryInteger>(time: MediaTime, factor: T) -> MediaTime {
    let factor = Int64(clamping: factor)
    let (product, overflow) = time.milliseconds.multipliedReportingOverflow(by: factor)
    guard overflow else { return MediaTime(milliseconds: product) }
    return MediaTime(milliseconds: (time.milliseconds < 0) == (factor < 0) ? .max : .min)
  }

  /// The time `factor` times over, saturating instead of overflowing.
  /// - Parameters:
  ///   - factor: any integer.
  ///   - time: any time.
  public static func * <T: BinaryInteger>(factor: T, time: MediaTime) -> MediaTime {
    time * factor
  }

  /// The time scaled by `factor`, such as a length of media played at a rate
  /// (`elapsed * rate.multiplier`): to the nearest millisecond, halves away
  /// from zero, saturating; a NaN factor gives zero.
  /// - Parameters:
  ///   - time: any time.
  ///   - factor: any number.
  public static func * (time: MediaTime, factor: Double) -> MediaTime {
    .milliseconds(Double(time.milliseconds) * factor)
  }

  /// The time scaled by `factor`, as ``*(_:_:)-(MediaTime,Double)``.
  /// - Parameters:
  ///   - factor: any number.
  ///   - time: any time.
  public static func * (factor: Double, time: MediaTime) -> MediaTime { time * factor }

  /// Multiplies a time by `factor` in place, saturating instead of overflowing.
  public static func *= <T: BinaryInteger>(time: inout MediaTime, factor: T) {
    time = time * factor
  }

  /// The compact form, as in `2000ms`.
  public var description: String { "\(milliseconds)ms" }
}
