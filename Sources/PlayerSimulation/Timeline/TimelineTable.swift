/// Renders timeline items as a fixed-width text table, one line per item,
/// optionally with ANSI colours (for terminals only).
///
/// A `relaunch` or `handoff` row says in its last column what became of the
/// engines; an event of a player that handed off ends `{player 1, handed off}`.
///
/// Every piece of text that comes from a script or an engine (media names,
/// notes, states, expectations) is escaped, so the only escape sequences a
/// line holds are the table's own colours.
///
/// ```
///     time  source  event                  state before → after                      commands
///   0.000s  user    play(A)                idle → buffering(A#1, autoplay)           load(A#1)
///   0.300s  engine  ready(A#1)             idle → idle                               IGNORED: stale load token
/// ```
public struct TimelineTable: Sendable {
  /// Whether to colour the output with ANSI escapes.
  public var color: Bool

  /// A table renderer.
  /// - Parameter color: true to use ANSI colours; only for terminals.
  public init(color: Bool) { self.color = color }

  private static let widths = (time: 8, source: 8, event: 26, states: 54)

  /// The column titles and a rule beneath them.
  public var header: String {
    let titles =
      pad("time", Self.widths.time, right: true) + "  " + pad("source", Self.widths.source)
      + pad("event", Self.widths.event) + pad("state before → after", Self.widths.states)
      + "commands sent"
    let rule = String(repeating: "─", count: titles.count)
    return paint(titles, "1") + "\n" + paint(rule, "2")
  }

  /// One item as one line (without a newline).
  /// - Parameter item: an event, a note or a check.
  public func line(_ item: TimelineItem) -> String {
    switch item {
    case .event(let entry):
      let states = terminalSafe("\(entry.before) → \(entry.after)")
      var text =
        head(entry.milliseconds, entry.source)
        + pad(terminalSafe(entry.eventText), Self.widths.event)
      if let ignored = entry.ignored {
        let label =
          switch (entry.event.source, ignored) {
          case (.user, .noEffect), (.remote, .noEffect), (.system, .noEffect): "no effect"
          case (.user, _), (.remote, _): "REFUSED: \(ignored)"
          default: "IGNORED: \(ignored)"
          }
        text += paint(pad(states, Self.widths.states), "2") + paint(label, "33")
      } else {
        var commands = terminalSafe(entry.commandTexts.joined(separator: " "))
        if let backoff = entry.backoffText {
          commands += (commands.isEmpty ? "" : " ") + "+" + terminalSafe(backoff)
        }
        if let sleep = entry.sleepTimer {
          commands += (commands.isEmpty ? "" : " ") + "+" + terminalSafe(sleep.description)
        }
        text += pad(states, Self.widths.states) + paint(commands.isEmpty ? "—" : commands, "32")
      }
      if entry.isRetired { text += " " + paint("{\(entry.retiredText)}", "2") }
      return trimmedRight(text)
    case .playerChange(let change):
      let states = terminalSafe("\(change.before) → \(change.after)")
      let text =
        head(change.milliseconds, change.source)
        + paint(pad(change.eventText, Self.widths.event), "1")
        + pad(states, Self.widths.states) + paint(terminalSafe(change.summary), "36")
      return trimmedRight(text)
    case .note(_, let text):
      return paint("          " + terminalSafe(text), "36")
    case .check(_, let line, let text):
      return paint(
        "          ✓ line \(line): \(terminalSafe(text, limit: terminalMessageLimit))", "2")
    }
  }

  /// A row's time and source columns.
  private func head(_ milliseconds: Int64, _ source: TimelineSource) -> String {
    let time = pad(
      SimulatedTime.clockText(milliseconds: milliseconds), Self.widths.time, right: true)
    return paint(time, "2") + "  "
      + paint(pad(source.rawValue, Self.widths.source), sourceColor(source))
  }

  /// One item as its lines (without newlines): ``line(_:)``, then for an
  /// event with notifications the line that lists them under it, as in
  /// `          ↳ entryChanged(A -> B, auto), playIntent(false, remote)`.
  /// - Parameter item: an event, a note or a check.
  public func lines(_ item: TimelineItem) -> [String] {
    guard case .event(let entry) = item, let notified = notificationLine(entry) else {
      return [line(item)]
    }
    return [line(item), notified]
  }

  /// The line under an event that lists its notifications, or nil with none:
  /// `          ↳ entryChanged(none -> A, queue), playIntent(true, user)`.
  /// - Parameter entry: a processed event.
  public func notificationLine(_ entry: TimelineEntry) -> String? {
    let notifications = entry.notifications
    guard !notifications.isEmpty else { return nil }
    return paint("          ↳ " + terminalSafe(notifications.description), "35")
  }

  /// The line shown in the table where an `expect` failed.
  /// - Parameter failure: the failed expectation.
  public func failureLine(_ failure: ExpectationFailure) -> String {
    paint(
      "          ✗ line \(failure.line): expected \(terminalSafe(failure.expected, limit: terminalMessageLimit)); "
        + "found \(terminalSafe(failure.found, limit: terminalMessageLimit))", "31")
  }

  /// A closing line for a run that passed.
  /// - Parameter text: what to say.
  public func successLine(_ text: String) -> String {
    paint("✓ " + terminalSafe(text), "32")
  }

  private func sourceColor(_ source: TimelineSource) -> String {
    switch source {
    case .user: "1"
    case .remote: "1;36"
    case .engine: "34"
    case .timer: "35"
    case .script: "33"
    case .system: "36"
    }
  }

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    // Unicode scalars, not characters: as wide for this table's text, and
    // grapheme breaking would cost more than the rest of a run.
    let fill = String(repeating: " ", count: max(width - text.unicodeScalars.count, 1))
    return right ? String(fill.dropLast()) + text : text + fill
  }

  private func trimmedRight(_ text: String) -> String {
    var scalars = text.unicodeScalars[...]
    while scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }
}
