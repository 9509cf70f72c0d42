/// How a search finds its way back to each state it visited: the state it was
/// first reached from, the step that led from there (each distinct step kept
/// once: most states share theirs with many others), and where each level of
/// the breadth-first search begins. 8 bytes a state, where a step of its own
/// (an array of actions) took about 100 more and the depth 4.
struct SearchPaths {
  private var parents: [Int32] = []
  private var stepIDs: [Int32] = []
  /// The distinct steps, and each one's number.
  private var steps: [[FuzzAction]] = []
  private var numbers: [[FuzzAction]: Int32] = [:]
  /// The first state of each depth (states are added in order of depth).
  private var levels: [Int32] = []

  /// How many states have a path.
  var count: Int { parents.count }

  /// How many distinct steps are kept.
  var distinctSteps: Int { steps.count }

  /// Adds state `count`, reached from `parent` by `step`, at `depth` (the last level's or one more).
  mutating func add(parent: Int32, step: [FuzzAction], depth: Int32) {
    let id = Int32(parents.count)
    if Int(depth) == levels.count { levels.append(id) }
    precondition(
      Int(depth) == levels.count - 1,
      "state \(id) added at depth \(depth) after a state at depth \(levels.count - 1)")
    let number: Int32
    if let known = numbers[step] {
      number = known
    } else {
      number = Int32(steps.count)
      steps.append(step)
      numbers[step] = number
    }
    parents.append(parent)
    stepIDs.append(number)
  }

  /// The depth of state `id`: the level it was found in.
  func depth(of id: Int32) -> Int32 {
    // The last level that begins at or before `id`.
    var low = 0
    var high = levels.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if levels[middle] <= id { low = middle } else { high = middle }
    }
    return Int32(low)
  }

  /// The depth of the last state added (0 with none).
  var lastDepth: Int32 { Int32(max(0, levels.count - 1)) }

  /// The actions from the start to state `id`, along the path it was first reached by.
  func path(to id: Int32) -> [FuzzAction] {
    var parts: [Int32] = []
    var at = id
    while at > 0 {
      parts.append(stepIDs[Int(at)])
      at = parents[Int(at)]
    }
    return parts.reversed().flatMap { steps[Int($0)] }
  }
}
