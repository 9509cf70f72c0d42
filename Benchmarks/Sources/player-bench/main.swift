// Placeholder: the benchmark work replaces this file.
print("player-bench")
