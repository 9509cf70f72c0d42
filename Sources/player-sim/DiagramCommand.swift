import PlayerState

/// `player-sim diagram`: the machine's transition table as a diagram.
enum DiagramCommand: Command {
  static let flags: [FlagSpec] = [
    .option("--format", "FORMAT", "mermaid (default), dot, or table (one row per transition)"),
    .toggle("--ignored", "with --format table, also list the ignored rows"),
  ]

  static let help = CommandHelp(
    name: "diagram", summary: "draw the state machine from its transition table",
    usage: "diagram [--format dot|mermaid|table] [--ignored]", flags: flags,
    details: [
      "The table is read off the reducer itself, so the drawing cannot drift from the code."
    ],
    example: [
      "player-sim diagram --format dot | dot -Tsvg > machine.svg",
      "player-sim diagram --format mermaid",
    ])

  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    let format =
      try parsed.choice("--format", from: ["dot", "mermaid", "table"])
      ?? "mermaid"
    switch format {
    case "dot": Terminal.out(String(TransitionTable.dot().dropLast()))
    case "table":
      let rows = parsed.has("--ignored") ? TransitionTable.rows : TransitionTable.accepted
      for row in rows { Terminal.out(row.description) }
    default: Terminal.out(String(TransitionTable.mermaid().dropLast()))
    }
    return .success
  }
}
