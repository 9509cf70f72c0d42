/// The fixed-point arithmetic ``PlaybackRate`` and ``Volume`` share: a value
/// kept in integral thousandths, made from a `Double` and printed as written.
enum Thousandths {
  /// `value × 1000` rounded to the nearest integer (halves away from zero),
  /// saturating at `Int32`'s bounds; `nan` for a NaN.
  static func rounding(_ value: Double, nan: Int32) -> Int32 {
    guard !value.isNaN else { return nan }
    let rounded = (value * 1000).rounded(.toNearestOrAwayFromZero)
    if rounded >= Double(Int32.max) { return .max }
    if rounded <= Double(Int32.min) { return .min }
    return Int32(rounded)
  }

  /// `1.5`, `0.75`, `2`, `-0.5`: the value without trailing zeros.
  static func text(_ thousandths: Int32) -> String {
    let whole = thousandths / 1000
    var fraction = String(abs(thousandths % 1000))
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = thousandths < 0 && whole == 0 ? "-" : ""
    return fraction.isEmpty ? "\(whole)" : "\(sign)\(whole).\(fraction)"
  }
}
