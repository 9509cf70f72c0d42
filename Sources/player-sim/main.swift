import Foundation

// player-sim: drives fake media through the real Player driver. See docs/player-sim.md.
exit(PlayerSim.main(Array(CommandLine.arguments.dropFirst())).rawValue)
