// An app's use of PlayerModelObject, type-checked by .ci/combine-typecheck against the module
// built with the Combine stub: the ObservableObject conformance, its publisher, the
// dynamic-member properties and the intents.
import Combine
import PlayerEngine
import PlayerObservation
import PlayerState

@MainActor
func use(_ player: Player) -> (ObservableObjectPublisher, Bool, AvailableCommands) {
  let model = PlayerModelObject(player: player)
  model.setQueue(["intro.mp3", "chapter-1.mp3"])
  model.toggle()
  model.seek(to: .seconds(30))
  let values: PlayerViewState = model.viewState
  let _: MediaTime = model.position
  let _: NowPlaying? = model.nowPlaying
  let _: NumberedNotification? = model.lastEntryChange
  _ = observe(model)
  return (model.objectWillChange, model.isPlaying || values.isBuffering, model.availableCommands)
}

/// A generic view model's constraint, as SwiftUI's `@StateObject` has.
func observe<Model: ObservableObject>(_ model: Model) -> Model.ObjectWillChangePublisher {
  model.objectWillChange
}
