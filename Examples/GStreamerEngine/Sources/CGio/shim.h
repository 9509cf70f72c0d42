// Small C wrappers over GIO's GDBus for Swift, for the MPRIS object of
// PlayheadMPRIS. What Swift cannot do directly is here: the interface vtable
// (its callbacks take eight arguments and it has a private padding array),
// G_VARIANT_TYPE (a cast macro), and g_variant_new (variadic). Everything
// else (g_variant_new_string, g_variant_builder_add_value, the main loop) is
// called from Swift.
#ifndef PLAYHEAD_GIO_SHIM_H
#define PLAYHEAD_GIO_SHIM_H

#include <gio/gio.h>
#include <string.h>

// What set_property answers, from the Swift handler.
#define PLAYHEAD_SET_OK 0
#define PLAYHEAD_SET_INVALID_ARGS 1
#define PLAYHEAD_SET_READ_ONLY 2

/// A method call on one of the exported interfaces; the handler must answer
/// `invocation` (g_dbus_method_invocation_return_value or _return_dbus_error).
typedef void (*PlayheadMethodFn)(void *context, const char *interface_name, const char *method_name,
                                 GVariant *parameters, GDBusMethodInvocation *invocation);
/// A property read: a new (floating) value, or NULL for an unknown property.
typedef GVariant *(*PlayheadGetFn)(void *context, const char *interface_name, const char *property_name);
/// A property write: one of the PLAYHEAD_SET_ constants.
typedef int (*PlayheadSetFn)(void *context, const char *interface_name, const char *property_name,
                             GVariant *value);
/// Called once, when both registrations are gone, to release `context`.
typedef void (*PlayheadReleaseFn)(void *context);

/// The Swift side of the registrations, shared by the two interfaces of the
/// object (counted: freed when the second registration is dropped).
typedef struct {
  PlayheadMethodFn method;
  PlayheadGetFn get;
  PlayheadSetFn set;
  PlayheadReleaseFn release;
  void *context;
  gint references;
} PlayheadObjectHandlers;

static void playhead_method_call(GDBusConnection *connection, const gchar *sender,
                                 const gchar *object_path, const gchar *interface_name,
                                 const gchar *method_name, GVariant *parameters,
                                 GDBusMethodInvocation *invocation, gpointer user_data) {
  PlayheadObjectHandlers *handlers = (PlayheadObjectHandlers *)user_data;
  handlers->method(handlers->context, interface_name, method_name, parameters, invocation);
}

static GVariant *playhead_get_property(GDBusConnection *connection, const gchar *sender,
                                       const gchar *object_path, const gchar *interface_name,
                                       const gchar *property_name, GError **error,
                                       gpointer user_data) {
  PlayheadObjectHandlers *handlers = (PlayheadObjectHandlers *)user_data;
  GVariant *value = handlers->get(handlers->context, interface_name, property_name);
  if (value == NULL)
    g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY, "No property %s.%s",
                interface_name, property_name);
  return value;
}

static gboolean playhead_set_property(GDBusConnection *connection, const gchar *sender,
                                      const gchar *object_path, const gchar *interface_name,
                                      const gchar *property_name, GVariant *value, GError **error,
                                      gpointer user_data) {
  PlayheadObjectHandlers *handlers = (PlayheadObjectHandlers *)user_data;
  switch (handlers->set(handlers->context, interface_name, property_name, value)) {
  case PLAYHEAD_SET_OK: return TRUE;
  case PLAYHEAD_SET_INVALID_ARGS:
    g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS, "Value out of range for %s.%s",
                interface_name, property_name);
    return FALSE;
  default:
    g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_PROPERTY_READ_ONLY, "%s.%s cannot be set",
                interface_name, property_name);
    return FALSE;
  }
}

static void playhead_handlers_unref(gpointer data) {
  PlayheadObjectHandlers *handlers = (PlayheadObjectHandlers *)data;
  if (g_atomic_int_dec_and_test(&handlers->references)) {
    handlers->release(handlers->context);
    g_free(handlers);
  }
}

/// A new connection of its own to the session bus (not the process-wide shared
/// one from g_bus_get: closing it closes nothing else, and a bus that goes away
/// does not raise SIGTERM in the process). NULL with `error` set if there is no
/// session bus (no DBUS_SESSION_BUS_ADDRESS).
static inline GDBusConnection *playhead_session_connection(GError **error) {
  gchar *address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, NULL, error);
  if (address == NULL) return NULL;
  GDBusConnection *connection = g_dbus_connection_new_for_address_sync(
      address,
      (GDBusConnectionFlags)(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION),
      NULL, NULL, error);
  g_free(address);
  return connection;
}

/// Registers `interfaces` (NULL-terminated names found in `xml`) at `path`,
/// in the calling thread's thread-default main context: GDBus dispatches
/// their calls there. The handlers' release runs once every registration is
/// dropped (or, after a failure, may never run: see below). `ids` receives one id per interface
/// (0 for those not registered). FALSE with `error` set on failure; the
/// registrations made are then undone.
static inline gboolean playhead_register_object(GDBusConnection *connection, const char *xml,
                                                const char *path, const char *const *interfaces,
                                                guint *ids, PlayheadMethodFn method,
                                                PlayheadGetFn get, PlayheadSetFn set,
                                                PlayheadReleaseFn release, void *context,
                                                GError **error) {
  PlayheadObjectHandlers *handlers = g_new0(PlayheadObjectHandlers, 1);
  handlers->method = method;
  handlers->get = get;
  handlers->set = set;
  handlers->release = release;
  handlers->context = context;
  handlers->references = 1;  // this function's own, dropped at the end
  GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(xml, error);
  gboolean ok = node != NULL;
  const GDBusInterfaceVTable vtable = {playhead_method_call, playhead_get_property,
                                       playhead_set_property, {0}};
  size_t count = 0;
  for (; ok && interfaces[count] != NULL; count++) {
    GDBusInterfaceInfo *info = g_dbus_node_info_lookup_interface(node, interfaces[count]);
    ids[count] = 0;
    if (info == NULL) {
      g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE,
                  "No interface %s in the introspection data", interfaces[count]);
      ok = FALSE;
      break;
    }
    g_atomic_int_inc(&handlers->references);
    ids[count] = g_dbus_connection_register_object(connection, path, info, &vtable, handlers,
                                                   playhead_handlers_unref, error);
    if (ids[count] == 0) {
      // Not registered. GLib 2.80 and later call the free function on failure (GLib
      // commit 747e3af), 2.74 does not: the reference taken for it is then never dropped,
      // a leak on a failed start, never a double free.
      ok = FALSE;
      break;
    }
  }
  if (!ok) {
    for (size_t index = 0; index < count; index++) {
      if (ids[index] != 0) g_dbus_connection_unregister_object(connection, ids[index]);
      ids[index] = 0;
    }
  }
  if (node != NULL) g_dbus_node_info_unref(node);
  playhead_handlers_unref(handlers);
  return ok;
}

/// Asks the bus for `name` without queueing (DO_NOT_QUEUE): 1 when this
/// connection is now its primary owner, 3 when another connection owns it, 0
/// with `error` set when the call failed.
static inline guint32 playhead_request_name(GDBusConnection *connection, const char *name,
                                            GError **error) {
  GVariant *reply = g_dbus_connection_call_sync(
      connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
      "RequestName", g_variant_new("(su)", name, (guint32)4), G_VARIANT_TYPE("(u)"),
      G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
  if (reply == NULL) return 0;
  guint32 result = 0;
  g_variant_get(reply, "(u)", &result);
  g_variant_unref(reply);
  return result;
}

/// A builder for values of the type `type_string`, such as "a{sv}" or "as";
/// g_variant_builder_unref it after g_variant_builder_end.
static inline GVariantBuilder *playhead_builder_new(const char *type_string) {
  return g_variant_builder_new(G_VARIANT_TYPE(type_string));
}

/// Emits org.freedesktop.DBus.Properties.PropertiesChanged for `interface_name`
/// at `path`, with `changed` (an a{sv}, consumed if floating) and no
/// invalidated properties.
static inline gboolean playhead_emit_properties_changed(GDBusConnection *connection,
                                                        const char *path,
                                                        const char *interface_name,
                                                        GVariant *changed, GError **error) {
  return g_dbus_connection_emit_signal(
      connection, NULL, path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
      g_variant_new("(s@a{sv}@as)", interface_name, changed, g_variant_new_strv(NULL, 0)), error);
}

/// Emits a signal whose only argument is the int64 `value` (MPRIS's Seeked).
static inline gboolean playhead_emit_int64_signal(GDBusConnection *connection, const char *path,
                                                  const char *interface_name,
                                                  const char *signal_name, gint64 value,
                                                  GError **error) {
  return g_dbus_connection_emit_signal(connection, NULL, path, interface_name, signal_name,
                                       g_variant_new("(x)", value), error);
}

/// The string of the child at `index` of a tuple (types s and o); NULL if that child is not a string.
static inline const char *playhead_child_string(GVariant *tuple, gsize index) {
  if (tuple == NULL || index >= g_variant_n_children(tuple)) return NULL;
  GVariant *child = g_variant_get_child_value(tuple, index);
  const char *text = NULL;
  if (g_variant_is_of_type(child, G_VARIANT_TYPE_STRING)
      || g_variant_is_of_type(child, G_VARIANT_TYPE_OBJECT_PATH))
    text = g_variant_get_string(child, NULL);  // owned by `tuple`, which holds the child
  g_variant_unref(child);
  return text;
}

/// The int64 child at `index` of a tuple into `value`; FALSE if it is not one.
static inline gboolean playhead_child_int64(GVariant *tuple, gsize index, gint64 *value) {
  if (tuple == NULL || index >= g_variant_n_children(tuple)) return FALSE;
  GVariant *child = g_variant_get_child_value(tuple, index);
  gboolean ok = g_variant_is_of_type(child, G_VARIANT_TYPE_INT64);
  if (ok) *value = g_variant_get_int64(child);
  g_variant_unref(child);
  return ok;
}

/// The double in `value` into `result`; FALSE if it is not a double.
static inline gboolean playhead_variant_double(GVariant *value, double *result) {
  if (value == NULL || !g_variant_is_of_type(value, G_VARIANT_TYPE_DOUBLE)) return FALSE;
  *result = g_variant_get_double(value);
  return TRUE;
}

#endif
