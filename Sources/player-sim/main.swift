import PlayerState
import PlayerEngine

// Placeholder: the player-sim work replaces this file.
for row in TransitionTable.rows where row.ignored == nil { print(row) }
print(TransitionTable.mermaid())
