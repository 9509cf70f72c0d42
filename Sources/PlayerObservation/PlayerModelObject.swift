#if canImport(Combine)
  public import Combine
  public import PlayerEngine
  public import PlayerState

  /// ``PlayerModel`` as an `ObservableObject`, for apps at the iOS 16 /
  /// macOS 13 floor (`@StateObject`, `@ObservedObject`): the same values and
  /// intents, from the same core.
  ///
  /// Every field of ``PlayerViewState`` reads as a property (`model.isPlaying`).
  /// An `ObservableObject` has one change signal, so any change redraws every
  /// view that observes the model, position reports included; on iOS 17 and
  /// later, ``PlayerModel`` tells each property's observers apart.
  ///
  /// ```swift
  /// struct PlayerView: View {
  ///   @StateObject private var model = PlayerModelObject(player: Player(engine: MyEngine()))
  ///   var body: some View {
  ///     Button(model.playWhenReady ? "Pause" : "Play") { model.toggle() }
  ///       .disabled(!model.availableCommands.contains(.toggle))
  ///   }
  /// }
  /// ```
  ///
  /// Not compiled on Linux (no Combine there): `.ci/combine-typecheck`
  /// type-checks this file against a stub of the Combine API it uses.
  @MainActor
  @dynamicMemberLookup
  public final class PlayerModelObject: ObservableObject, PlayerIntents {
    /// The player the model follows and sends intents to.
    public let player: Player
    private let core: PlayerModelCore

    /// All the published values at once.
    @Published public private(set) var viewState: PlayerViewState

    /// A model of `player`, following it from now on.
    /// - Parameters:
    ///   - player: the player; the model keeps it.
    ///   - progressInterval: how often ``PlayerViewState/position`` moves while
    ///     media plays (ticks on the player's clock, none while paused or
    ///     buffering); nil to move it only when the state changes.
    public init(player: Player, progressInterval: Duration? = .milliseconds(500)) {
      self.player = player
      core = PlayerModelCore(player: player, progressInterval: progressInterval)
      viewState = core.viewState
      core.subject = self
      core.start()
    }

    /// One published value, as a property: `model.isPlaying` is `viewState.isPlaying`.
    /// - Parameter field: the field of ``PlayerViewState``.
    public subscript<Value>(dynamicMember field: KeyPath<PlayerViewState, Value>) -> Value {
      viewState[keyPath: field]
    }

    /// Sends an event to the player and publishes the state it left.
    /// - Parameter event: the event, such as `.remote(.toggle)`.
    public func send(_ event: PlaybackEvent) { core.send(event) }
  }

  extension PlayerModelObject: ViewStateSubject {
    // `@Published` sends `objectWillChange` as the value is assigned.
    func viewStateWillChange(from old: PlayerViewState, to new: PlayerViewState) {}

    func viewStateDidChange(from old: PlayerViewState, to new: PlayerViewState) {
      viewState = new
    }
  }
#endif
