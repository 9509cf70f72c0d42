// Placeholder: the fuzz work replaces this file.
import PlayerEngine
