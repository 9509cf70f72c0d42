// Placeholder: the player-sim work replaces this file.
import PlayerEngine
