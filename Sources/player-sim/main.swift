import Foundation

// player-sim: drives fake media through the real Player driver. See docs/player-sim.md.
// Standard output and error are checked: a write that failed exits 2 (Terminal.finish).
Terminal.start()
exit(Terminal.finish(PlayerSim.main(Array(CommandLine.arguments.dropFirst()))).rawValue)
