import CGio
import Dispatch
import Foundation
import Synchronization

/// An MPRIS 2 player on the D-Bus session bus, over GIO's GDBus: desktop media keys, shell
/// widgets and `playerctl` see the player and control it.
///
/// It exports `org.mpris.MediaPlayer2` and `org.mpris.MediaPlayer2.Player` at
/// `/org/mpris/MediaPlayer2` and owns `org.mpris.MediaPlayer2.<name>[.<instance>]`.
/// Property values come from ``MPRISView`` (pure), method calls become ``MPRISCommand``s
/// through ``MPRISMethodCall/reply(in:)`` (pure); this type only carries them over D-Bus.
///
/// Threads: GDBus dispatches method calls and property reads on the main context that was
/// the thread default when the object was registered, and no GLib main loop runs in a Swift
/// program. So ``start()`` starts a thread of its own that creates a `GMainContext`, makes it
/// its thread default, registers the object, requests the name and then iterates that
/// context until ``stop()``. Method calls send the player a command and return at once.
/// `PropertiesChanged` and `Seeked` are emitted from one task that follows the player's
/// updates, in step order (GDBus connections may be used from any thread).
///
/// ```swift
/// let player = Player(engine: GStreamerEngine())
/// let mpris = try MPRISServer(player: player, instance: "instance\(getpid())")
/// try mpris.start()          // `playerctl --player=playhead play-pause` now toggles
/// defer { mpris.stop() }
/// ```
public final class MPRISServer: Sendable {
  /// The bus name owned while running, such as `org.mpris.MediaPlayer2.playhead`.
  public let busName: String
  /// The fixed facts the root interface shows.
  public let identity: MPRISIdentity

  private let player: any MPRISPlayer
  private let published: Mutex<Published>
  private let runtime = Mutex(Runtime())
  private let stopping = Atomic<Bool>(false)
  private let clock = ContinuousClock()

  /// What property reads answer: the newest view and when its position anchor was taken.
  private struct Published {
    var view: MPRISView
    var anchor: ContinuousClock.Instant
  }

  /// The running server's handles, only touched under `runtime`'s lock.
  private struct Runtime {
    var started = false
    var connection: GHandle?
    var context: GHandle?
    var updates: Task<Void, Never>?
    var finished: DispatchSemaphore?
  }

  /// Creates a server; nothing is exported before ``start()``.
  /// - Parameters:
  ///   - player: the player to show and control.
  ///   - name: the player's bus name element: `playerctl --player=<name>` finds it.
  ///   - instance: a suffix for one of several instances (`org.mpris.MediaPlayer2.playhead.instance42`);
  ///     nil for none.
  ///   - identity: the root interface's facts.
  /// - Throws: ``MPRISNameError`` when `name` or `instance` is not a bus name element.
  public init(
    player: any MPRISPlayer, name: String = "playhead", instance: String? = nil,
    identity: MPRISIdentity = MPRISIdentity()
  ) throws(MPRISNameError) {
    self.busName = try MPRISNames.busName(name, instance: instance)
    self.identity = identity
    self.player = player
    self.published = Mutex(Published(view: player.mprisView, anchor: ContinuousClock.now))
  }

  /// Connects to the session bus, exports the object and owns the bus name; returns once
  /// clients can call it.
  /// - Throws: ``MPRISServerError`` when there is no session bus, the object cannot be
  ///   registered, the name is owned by another connection, or the server was started before.
  public func start() throws(MPRISServerError) {
    let first = runtime.withLock { runtime in
      defer { runtime.started = true }
      return !runtime.started
    }
    guard first else { throw MPRISServerError("the server was started before") }
    // Subscribed before the first view is read: no step falls between them.
    let updates = player.mprisUpdates()
    published.withLock { $0 = Published(view: player.mprisView, anchor: clock.now) }
    let ready = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let thread = Thread { [self] in
      serve(
        onReady: { error in
          outcome.error.withLock { $0 = error }
          ready.signal()
        })
      finished.signal()
    }
    thread.name = "MPRIS \(busName)"
    thread.start()
    ready.wait()
    if let error = outcome.error.withLock({ $0 }) {
      finished.wait()
      throw error
    }
    let task = Task { [weak self] in
      for await update in updates { self?.apply(update) }
    }
    runtime.withLock { runtime in
      runtime.updates = task
      runtime.finished = finished
    }
  }

  /// Releases the name, unregisters the object, closes the connection and ends the
  /// server's thread; returns once it has ended. Not from inside a call the server handles.
  public func stop() {
    let (context, task, finished) = runtime.withLock { runtime in
      // The connection is forgotten first: no signal is emitted from now on.
      runtime.connection = nil
      defer {
        runtime.context = nil
        runtime.updates = nil
        runtime.finished = nil
      }
      return (runtime.context, runtime.updates, runtime.finished)
    }
    task?.cancel()
    stopping.store(true, ordering: .sequentiallyConsistent)
    if let context {
      g_main_context_wakeup(context.raw)
      g_main_context_unref(context.raw)  // the reference taken for this handle
    }
    finished?.wait()
  }

  /// How the server's thread's start went, handed to ``start()``.
  private final class Outcome: Sendable {
    let error = Mutex<MPRISServerError?>(nil)
  }

  // MARK: The server's thread

  /// Runs on the server's thread: sets up, reports through `onReady`, then serves until
  /// ``stop()``.
  private func serve(onReady: (MPRISServerError?) -> Void) {
    let context = g_main_context_new()
    g_main_context_push_thread_default(context)
    defer {
      g_main_context_pop_thread_default(context)
      g_main_context_unref(context)
    }
    var error: UnsafeMutablePointer<GError>?
    guard let connection = playhead_session_connection(&error) else {
      onReady(MPRISServerError("no session bus", error))
      return
    }
    defer {
      g_dbus_connection_close_sync(connection, nil, nil)
      g_object_unref(UnsafeMutableRawPointer(connection))
    }
    var ids: [guint] = [0, 0]
    // The context GDBus hands the callbacks: this server, retained until GDBus drops both
    // registrations (playhead_handlers_unref calls `release` once). The callbacks only run
    // on this thread, while the registrations exist, so the pointer is always live there.
    let handlers = Unmanaged.passRetained(self).toOpaque()
    let registered = MPRISServer.introspection(identity).withCString { xml in
      MPRISNames.root.withCString { root in
        MPRISNames.player.withCString { player in
          var interfaces: [UnsafePointer<CChar>?] = [root, player, nil]
          return playhead_register_object(
            connection, xml, MPRISNames.objectPath, &interfaces, &ids, MPRISServer.methodCall,
            MPRISServer.getProperty, MPRISServer.setProperty, MPRISServer.release, handlers,
            &error)
        }
      }
    }
    guard registered != 0 else {
      onReady(MPRISServerError("the object could not be registered", error))
      return
    }
    defer {
      for id in ids where id != 0 { g_dbus_connection_unregister_object(connection, id) }
      // GDBus drops a registration's user data in an idle callback of this context.
      while g_main_context_iteration(context, 0) != 0 {}
    }
    let owner = playhead_request_name(connection, busName, &error)
    guard owner == 1 else {
      onReady(
        owner == 0
          ? MPRISServerError("RequestName(\(busName)) failed", error)
          : MPRISServerError("\(busName) is owned by another connection (RequestName: \(owner))"))
      return
    }
    // Proof for GHandle: the connection is a GDBusConnection (documented usable from any
    // thread); the context is only woken from other threads (g_main_context_wakeup is).
    runtime.withLock { runtime in
      runtime.connection = GHandle(connection)
      // A reference of the handle's own: `stop()` may wake the context after this thread
      // has seen the flag and dropped its reference.
      runtime.context = GHandle(g_main_context_ref(context))
    }
    onReady(nil)
    while !stopping.load(ordering: .sequentiallyConsistent) {
      g_main_context_iteration(context, 1)
    }
  }

  /// Applies one update: property reads see it, and the changes are signalled.
  private func apply(_ update: MPRISUpdate) {
    let (changed, seekedTo) = published.withLock { published -> ([MPRISEntry], Int64?) in
      let old = published.view
      let new = update.view
      let now = clock.now
      if update.seeked || old.elapsed != new.elapsed || old.effectiveRate != new.effectiveRate
        || old.track?.item != new.track?.item
      {
        published.anchor = now
      }
      published.view = new
      return (new.changedProperties(since: old, identity), update.seeked ? new.position(since: .zero) : nil)
    }
    guard !changed.isEmpty || seekedTo != nil else { return }
    // Under the lock that `stop()` clears the connection under: never emitted on a closed one.
    runtime.withLock { runtime in
      guard let connection = runtime.connection?.raw else { return }
      if !changed.isEmpty {
        playhead_emit_properties_changed(
          connection, MPRISNames.objectPath, MPRISNames.player,
          MPRISServer.variant(.dictionary(changed)), nil)
      }
      if let seekedTo {
        playhead_emit_int64_signal(
          connection, MPRISNames.objectPath, MPRISNames.player, "Seeked", gint64(seekedTo), nil)
      }
    }
  }

  /// The value of a property now; nil for an unknown one.
  func value(of property: String, in interface: String) -> MPRISValue? {
    if interface == MPRISNames.root {
      return MPRISView.rootProperties(identity).first { $0.key == property }?.value
    }
    guard interface == MPRISNames.player else { return nil }
    let (view, anchor) = published.withLock { ($0.view, $0.anchor) }
    if property == "Position" { return .int64(view.position(since: clock.now - anchor)) }
    return view.playerProperties(identity, since: .zero).first { $0.key == property }?.value
  }

  /// Handles a method call; answers `invocation`.
  func handle(_ call: MPRISMethodCall, invocation: OpaquePointer) {
    switch call.reply(in: published.withLock { $0.view }) {
    case .send(let command):
      player.mprisSend(command)
      g_dbus_method_invocation_return_value(invocation, nil)
    case .nothing:
      g_dbus_method_invocation_return_value(invocation, nil)
    case .error(let error):
      g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
    }
  }

  // MARK: C callbacks (GDBus calls them on the server's thread)

  private static let methodCall: PlayheadMethodFn = { context, _, method, parameters, invocation in
    guard let context, let method, let invocation else { return }
    let server = Unmanaged<MPRISServer>.fromOpaque(context).takeUnretainedValue()
    let name = String(cString: method)
    guard let call = decode(name, parameters) else {
      // GDBus checked the signature against the introspection data: only an unknown name.
      g_dbus_method_invocation_return_dbus_error(
        invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(name)")
      return
    }
    server.handle(call, invocation: invocation)
  }

  private static let getProperty: PlayheadGetFn = { context, interface, property in
    guard let context, let interface, let property else { return nil }
    let server = Unmanaged<MPRISServer>.fromOpaque(context).takeUnretainedValue()
    return server.value(of: String(cString: property), in: String(cString: interface)).map(variant)
  }

  private static let setProperty: PlayheadSetFn = { context, interface, property, value in
    guard let context, let property else { return PLAYHEAD_SET_READ_ONLY }
    let server = Unmanaged<MPRISServer>.fromOpaque(context).takeUnretainedValue()
    var number = 0.0
    guard playhead_variant_double(value, &number) != 0 else { return PLAYHEAD_SET_READ_ONLY }
    let reply: MPRISReply
    switch String(cString: property) {
    case "Rate": reply = MPRISMethodCall.rateWrite(number, server.identity)
    case "Volume": reply = MPRISMethodCall.volumeWrite(number)
    default: return PLAYHEAD_SET_READ_ONLY
    }
    switch reply {
    case .send(let command):
      server.player.mprisSend(command)
      return PLAYHEAD_SET_OK
    case .nothing: return PLAYHEAD_SET_OK
    case .error: return PLAYHEAD_SET_INVALID_ARGS
    }
  }

  private static let release: PlayheadReleaseFn = { context in
    guard let context else { return }
    Unmanaged<MPRISServer>.fromOpaque(context).release()
  }

  /// A method call from its name and parameters (already checked against the signature).
  static func decode(_ name: String, _ parameters: OpaquePointer?) -> MPRISMethodCall? {
    switch name {
    case "Raise": return .raise
    case "Quit": return .quit
    case "Play": return .play
    case "Pause": return .pause
    case "PlayPause": return .playPause
    case "Stop": return .stop
    case "Next": return .next
    case "Previous": return .previous
    case "Seek":
      var offset: gint64 = 0
      guard playhead_child_int64(parameters, 0, &offset) != 0 else { return nil }
      return .seek(offset: Int64(offset))
    case "SetPosition":
      var position: gint64 = 0
      guard let track = playhead_child_string(parameters, 0),
        playhead_child_int64(parameters, 1, &position) != 0
      else { return nil }
      return .setPosition(trackID: String(cString: track), position: Int64(position))
    case "OpenUri":
      guard let uri = playhead_child_string(parameters, 0) else { return nil }
      return .openUri(String(cString: uri))
    default: return nil
    }
  }

  /// A new floating GVariant for a value.
  static func variant(_ value: MPRISValue) -> OpaquePointer {
    switch value {
    case .bool(let value): return g_variant_new_boolean(value ? 1 : 0)
    case .string(let value): return g_variant_new_string(value)
    case .int64(let value): return g_variant_new_int64(gint64(value))
    case .double(let value): return g_variant_new_double(value)
    case .objectPath(let value): return g_variant_new_object_path(value)
    case .strings(let values):
      let builder = playhead_builder_new("as")
      for value in values { g_variant_builder_add_value(builder, g_variant_new_string(value)) }
      defer { g_variant_builder_unref(builder) }
      return g_variant_builder_end(builder)
    case .dictionary(let entries):
      let builder = playhead_builder_new("a{sv}")
      for entry in entries {
        g_variant_builder_add_value(
          builder,
          g_variant_new_dict_entry(
            g_variant_new_string(entry.key), g_variant_new_variant(variant(entry.value))))
      }
      defer { g_variant_builder_unref(builder) }
      return g_variant_builder_end(builder)
    }
  }

  /// The introspection data of both interfaces (MPRIS 2.2; no TrackList, no Playlists);
  /// `DesktopEntry` only when the identity has one.
  static func introspection(_ identity: MPRISIdentity) -> String {
    let desktopEntry =
      identity.desktopEntry == nil ? "" : #"<property name="DesktopEntry" type="s" access="read"/>"#
    return """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/>
        <method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="Identity" type="s" access="read"/>
        \(desktopEntry)
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/>
        <method name="Previous"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <method name="Stop"/>
        <method name="Play"/>
        <method name="Seek"><arg direction="in" type="x" name="Offset"/></method>
        <method name="SetPosition">
          <arg direction="in" type="o" name="TrackId"/>
          <arg direction="in" type="x" name="Position"/>
        </method>
        <method name="OpenUri"><arg direction="in" type="s" name="Uri"/></method>
        <signal name="Seeked"><arg type="x" name="Position"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="Rate" type="d" access="readwrite"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="Volume" type="d" access="readwrite"/>
        <property name="Position" type="x" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
        </property>
        <property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
        <property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
      </interface>
    </node>
    """
  }
}

/// Why an MPRIS server could not start.
public struct MPRISServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, with GLib's message when there is one.
  public let message: String

  init(_ message: String, _ error: UnsafeMutablePointer<GError>? = nil) {
    if let error {
      let detail = error.pointee.message.map { String(cString: $0) } ?? "no message"
      self.message = "\(message): \(detail)"
      g_error_free(error)
    } else {
      self.message = message
    }
  }

  /// The message.
  public var description: String { message }
}

/// A GLib pointer handed between threads.
///
/// `@unchecked Sendable`, proof: it holds only the server's `GDBusConnection` (GDBus documents
/// its methods as callable from any thread, and the server emits signals under the lock that
/// `stop()` clears the handle under, before the connection is closed) and its `GMainContext`
/// (only `g_main_context_wakeup`, documented thread-safe, is called on it from other threads,
/// also before the thread that owns it frees it, which waits for `stop()`'s flag).
struct GHandle: @unchecked Sendable {
  let raw: OpaquePointer
  init(_ raw: OpaquePointer) { self.raw = raw }
}
