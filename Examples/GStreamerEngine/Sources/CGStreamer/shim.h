// Small C wrappers over GStreamer for Swift: macros (GST_MESSAGE_TYPE,
// GST_RESOURCE_ERROR…) and variadic functions (g_object_set) do not import,
// so each gets a static inline function here. Only what the adapter needs.
#ifndef PLAYHEAD_GSTREAMER_SHIM_H
#define PLAYHEAD_GSTREAMER_SHIM_H

#include <gst/gst.h>
#include <string.h>

// The bus messages the adapter maps to reports; everything else is OTHER.
#define PLAYHEAD_MESSAGE_OTHER 0
#define PLAYHEAD_MESSAGE_ASYNC_DONE 1
#define PLAYHEAD_MESSAGE_EOS 2
#define PLAYHEAD_MESSAGE_ERROR 3
#define PLAYHEAD_MESSAGE_BUFFERING 4
#define PLAYHEAD_MESSAGE_STREAM_START 5
#define PLAYHEAD_MESSAGE_DURATION_CHANGED 6

// GError domains the adapter distinguishes.
#define PLAYHEAD_DOMAIN_OTHER 0
#define PLAYHEAD_DOMAIN_CORE 1
#define PLAYHEAD_DOMAIN_LIBRARY 2
#define PLAYHEAD_DOMAIN_RESOURCE 3
#define PLAYHEAD_DOMAIN_STREAM 4

/// Initialises GStreamer; safe to call more than once, from any thread.
static inline void playhead_gst_init(void) { gst_init(NULL, NULL); }

/// A URI for a media string: itself if it already is a URI, otherwise a
/// file:// URI for a (relative or absolute) path. NULL if neither. g_free it.
static inline char *playhead_media_uri(const char *media) {
  if (gst_uri_is_valid(media)) return g_strdup(media);
  return gst_filename_to_uri(media, NULL);
}

static inline void playhead_set_if_present(GstElement *element, const char *name, gboolean value) {
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), name) != NULL)
    g_object_set(element, name, value, NULL);
}

/// A playbin for `uri` whose audio and video go to sinks made from the
/// given factory names (such as "fakesink" for CI, or "autoaudiosink").
/// `sync` makes fake sinks play in real time. NULL if playbin is missing.
static inline GstElement *playhead_make_playbin(
    const char *uri, const char *audio_sink, const char *video_sink, gboolean sync) {
  GstElement *playbin = gst_element_factory_make("playbin", NULL);
  if (playbin == NULL) return NULL;
  g_object_set(playbin, "uri", uri, NULL);
  GstElement *audio = gst_element_factory_make(audio_sink, NULL);
  if (audio != NULL) {
    playhead_set_if_present(audio, "sync", sync);
    g_object_set(playbin, "audio-sink", audio, NULL);
  }
  GstElement *video = gst_element_factory_make(video_sink, NULL);
  if (video != NULL) {
    playhead_set_if_present(video, "sync", sync);
    g_object_set(playbin, "video-sink", video, NULL);
  }
  return playbin;
}

/// The next bus message the adapter maps, waiting up to `timeout_ns`; NULL if none.
static inline GstMessage *playhead_pop(GstBus *bus, guint64 timeout_ns) {
  return gst_bus_timed_pop_filtered(
      bus, timeout_ns,
      (GstMessageType)(GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_EOS | GST_MESSAGE_ERROR
                       | GST_MESSAGE_BUFFERING | GST_MESSAGE_STREAM_START
                       | GST_MESSAGE_DURATION_CHANGED));
}

/// One of the PLAYHEAD_MESSAGE_ constants.
static inline int playhead_message_kind(GstMessage *message) {
  switch (GST_MESSAGE_TYPE(message)) {
  case GST_MESSAGE_ASYNC_DONE: return PLAYHEAD_MESSAGE_ASYNC_DONE;
  case GST_MESSAGE_EOS: return PLAYHEAD_MESSAGE_EOS;
  case GST_MESSAGE_ERROR: return PLAYHEAD_MESSAGE_ERROR;
  case GST_MESSAGE_BUFFERING: return PLAYHEAD_MESSAGE_BUFFERING;
  case GST_MESSAGE_STREAM_START: return PLAYHEAD_MESSAGE_STREAM_START;
  case GST_MESSAGE_DURATION_CHANGED: return PLAYHEAD_MESSAGE_DURATION_CHANGED;
  default: return PLAYHEAD_MESSAGE_OTHER;
  }
}

/// The percentage of a BUFFERING message.
static inline int playhead_buffering_percent(GstMessage *message) {
  gint percent = 0;
  gst_message_parse_buffering(message, &percent);
  return percent;
}

/// The domain (a PLAYHEAD_DOMAIN_ constant) of an ERROR message; its code and
/// text go to `code` and `text`, and its GError domain's quark string (such as
/// `gst-resource-error-quark`) to `quark` (each truncated to its size, always terminated).
static inline int playhead_parse_error(GstMessage *message, int *code, char *text, size_t text_size,
                                       char *quark, size_t quark_size) {
  GError *error = NULL;
  gchar *debug = NULL;
  gst_message_parse_error(message, &error, &debug);
  g_free(debug);
  int domain = PLAYHEAD_DOMAIN_OTHER;
  *code = 0;
  if (text_size > 0) text[0] = '\0';
  if (quark_size > 0) quark[0] = '\0';
  if (error == NULL) return domain;
  const gchar *name = g_quark_to_string(error->domain);
  if (quark_size > 0 && name != NULL) g_strlcpy(quark, name, quark_size);
  if (error->domain == GST_CORE_ERROR) domain = PLAYHEAD_DOMAIN_CORE;
  else if (error->domain == GST_LIBRARY_ERROR) domain = PLAYHEAD_DOMAIN_LIBRARY;
  else if (error->domain == GST_RESOURCE_ERROR) domain = PLAYHEAD_DOMAIN_RESOURCE;
  else if (error->domain == GST_STREAM_ERROR) domain = PLAYHEAD_DOMAIN_STREAM;
  *code = error->code;
  if (text_size > 0 && error->message != NULL) g_strlcpy(text, error->message, text_size);
  g_error_free(error);
  return domain;
}

/// A flushing, accurate seek to `position_ns`; FALSE if the pipeline refused it.
static inline gboolean playhead_seek(GstElement *element, gint64 position_ns) {
  return gst_element_seek_simple(
      element, GST_FORMAT_TIME, (GstSeekFlags)(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE),
      position_ns);
}

/// Sets the pipeline to PLAYING (TRUE) or PAUSED (FALSE).
static inline void playhead_set_playing(GstElement *element, gboolean playing) {
  gst_element_set_state(element, playing ? GST_STATE_PLAYING : GST_STATE_PAUSED);
}

/// Sets playbin's `volume` property: a linear factor, 0 silent, 1 full (GstStreamVolume's
/// linear scale; playbin accepts up to 10, the adapter never sends more than 1).
static inline void playhead_set_volume(GstElement *element, gdouble volume) {
  g_object_set(element, "volume", volume, NULL);
}

/// The pipeline's state once a state change in progress has settled (waiting at most
/// `timeout_ns`): "PLAYING", "PAUSED", "READY" or "NULL" (a static string).
static inline const char *playhead_settled_state(GstElement *element, guint64 timeout_ns) {
  GstState state = GST_STATE_VOID_PENDING;
  GstState pending = GST_STATE_VOID_PENDING;
  gst_element_get_state(element, &state, &pending, (GstClockTime)timeout_ns);
  return gst_element_state_get_name(state);
}

/// playbin's `volume` property, as the pipeline reads it back.
static inline gdouble playhead_volume(GstElement *element) {
  gdouble volume = -1;
  g_object_get(element, "volume", &volume, NULL);
  return volume;
}

/// The pipeline's position in the current stream, in milliseconds; -1 if unknown.
static inline gint64 playhead_position_ms(GstElement *element) {
  gint64 position = -1;
  if (!gst_element_query_position(element, GST_FORMAT_TIME, &position) || position < 0) return -1;
  return position / GST_MSECOND;
}

/// The duration of the pipeline's current stream, in milliseconds; -1 if unknown.
static inline gint64 playhead_duration_ms(GstElement *element) {
  gint64 duration = -1;
  if (!gst_element_query_duration(element, GST_FORMAT_TIME, &duration) || duration < 0) return -1;
  return duration / GST_MSECOND;
}

/// What the pipeline says about a live stream. `live`: the prerolled pipeline knows no
/// duration (the duration query fails or answers none), as AVPlayer's indefinite duration
/// means live: an HLS playlist with no end, a radio stream. Not the latency query's live flag:
/// a sink that syncs to the clock answers live for any media, a WAV file included. For a live
/// pipeline, the seeking query in time: `seekable`, and the range from `start_ms` to `end_ms`
/// (each -1 when unknown).
static inline void playhead_live_query(GstElement *element, gboolean *live, gboolean *seekable,
                                       gint64 *start_ms, gint64 *end_ms) {
  *seekable = FALSE;
  *start_ms = -1;
  *end_ms = -1;
  gint64 duration = -1;
  *live = !gst_element_query_duration(element, GST_FORMAT_TIME, &duration) || duration < 0;
  if (!*live) return;
  GstQuery *seeking = gst_query_new_seeking(GST_FORMAT_TIME);
  if (gst_element_query(element, seeking)) {
    GstFormat format = GST_FORMAT_UNDEFINED;
    gint64 start = -1, end = -1;
    gst_query_parse_seeking(seeking, &format, seekable, &start, &end);
    if (format == GST_FORMAT_TIME) {
      *start_ms = start < 0 ? -1 : start / GST_MSECOND;
      *end_ms = end < 0 ? -1 : end / GST_MSECOND;
    } else {
      *seekable = FALSE;
    }
  }
  gst_query_unref(seeking);
}

/// TRUE for a file:// URI whose file does not exist (a preload that cannot play).
static inline gboolean playhead_uri_is_missing_file(const char *uri) {
  gchar *path = g_filename_from_uri(uri, NULL, NULL);
  if (path == NULL) return FALSE;
  gboolean missing = !g_file_test(path, G_FILE_TEST_EXISTS);
  g_free(path);
  return missing;
}

/// Points the pipeline at another URI without the gapless path: READY, the
/// new URI, then PAUSED (it prerolls again; an ASYNC_DONE follows). Messages
/// still on the bus are the old stream's: they are flushed, so that none is
/// taken for the new stream's.
static inline void playhead_replace_uri(GstElement *element, GstBus *bus, const char *uri) {
  gst_bus_set_flushing(bus, TRUE);
  gst_element_set_state(element, GST_STATE_READY);
  g_object_set(element, "uri", uri, NULL);
  gst_bus_set_flushing(bus, FALSE);
  gst_element_set_state(element, GST_STATE_PAUSED);
}

// Gapless playback: playbin emits "about-to-finish" on a streaming thread when
// it has read the current stream (for a small local file, long before its end
// is heard); setting "uri" in that handler makes it play that URI next with no
// gap. The next URI is kept here, under a mutex, by the pipeline's own thread,
// with a tag (the load token); the handler takes it and notes the switch and
// its tag, which the pipeline's thread learns at the next STREAM_START. Once
// taken, the switch is committed: clearing the next URI no longer undoes it.
typedef struct {
  GMutex lock;
  gchar *next_uri;
  guint32 next_tag;
  gboolean switched;
  guint32 switched_tag;
} PlayheadGapless;

static void playhead_about_to_finish(GstElement *playbin, gpointer data) {
  PlayheadGapless *gapless = (PlayheadGapless *)data;
  g_mutex_lock(&gapless->lock);
  if (gapless->next_uri != NULL) {
    g_object_set(playbin, "uri", gapless->next_uri, NULL);
    g_free(gapless->next_uri);
    gapless->next_uri = NULL;
    gapless->switched = TRUE;
    gapless->switched_tag = gapless->next_tag;
  }
  g_mutex_unlock(&gapless->lock);
}

/// Watches the playbin's "about-to-finish"; free with playhead_gapless_free.
static inline PlayheadGapless *playhead_gapless_new(GstElement *playbin) {
  PlayheadGapless *gapless = g_new0(PlayheadGapless, 1);
  g_mutex_init(&gapless->lock);
  g_signal_connect(playbin, "about-to-finish", G_CALLBACK(playhead_about_to_finish), gapless);
  return gapless;
}

/// Sets (or, with NULL, clears) the URI to play after the current stream, and its tag.
static inline void playhead_gapless_set_next(PlayheadGapless *gapless, const char *uri, guint32 tag) {
  g_mutex_lock(&gapless->lock);
  g_free(gapless->next_uri);
  gapless->next_uri = uri == NULL ? NULL : g_strdup(uri);
  gapless->next_tag = tag;
  g_mutex_unlock(&gapless->lock);
}

/// TRUE once after "about-to-finish" handed the playbin the next URI; the tag
/// of that URI goes to `tag`.
static inline gboolean playhead_gapless_take_switched(PlayheadGapless *gapless, guint32 *tag) {
  g_mutex_lock(&gapless->lock);
  gboolean switched = gapless->switched;
  *tag = gapless->switched_tag;
  gapless->switched = FALSE;
  gapless->switched_tag = 0;
  g_mutex_unlock(&gapless->lock);
  return switched;
}

/// Disconnects the handler (the pipeline must be in NULL state) and frees.
static inline void playhead_gapless_free(GstElement *playbin, PlayheadGapless *gapless) {
  g_signal_handlers_disconnect_by_data(playbin, gapless);
  g_free(gapless->next_uri);
  g_mutex_clear(&gapless->lock);
  g_free(gapless);
}

/// Shuts the pipeline down (state NULL) and releases it and its bus.
static inline void playhead_release(GstElement *element, GstBus *bus) {
  gst_element_set_state(element, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(element);
}

/// Runs a pipeline described in gst-launch syntax (an encoder writing a
/// file) to its end: 0 when it reached EOS within `timeout_ns`, -1 if the
/// description does not parse, -2 on an error message, -3 on timeout. For
/// the tests, which make their media with the plugins they play them with.
static inline int playhead_run_pipeline(const char *description, guint64 timeout_ns) {
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  if (pipeline == NULL || error != NULL) {
    if (error != NULL) g_error_free(error);
    if (pipeline != NULL) gst_object_unref(pipeline);
    return -1;
  }
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage *message = gst_bus_timed_pop_filtered(
      bus, timeout_ns, (GstMessageType)(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  int result = -3;
  if (message != NULL) {
    result = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS ? 0 : -2;
    gst_message_unref(message);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(pipeline);
  return result;
}

/// Starts a pipeline described in gst-launch syntax (a live source writing files, for the
/// tests) and returns it PLAYING; NULL if the description does not parse or it cannot start.
/// Stop it with playhead_stop_pipeline.
static inline GstElement *playhead_start_pipeline(const char *description) {
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  if (pipeline == NULL || error != NULL) {
    if (error != NULL) g_error_free(error);
    if (pipeline != NULL) gst_object_unref(pipeline);
    return NULL;
  }
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return NULL;
  }
  return pipeline;
}

/// The text of the first ERROR message a started pipeline posted, copied into `text` (always
/// terminated); FALSE if none. Pops the messages up to it.
static inline gboolean playhead_pipeline_error(GstElement *pipeline, char *text, size_t text_size) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  gst_object_unref(bus);
  if (message == NULL) return FALSE;
  GError *error = NULL;
  gchar *debug = NULL;
  gst_message_parse_error(message, &error, &debug);
  if (text_size > 0) g_snprintf(text, text_size, "%s (%s)", error ? error->message : "?", debug ? debug : "");
  if (error != NULL) g_error_free(error);
  g_free(debug);
  gst_message_unref(message);
  return TRUE;
}

/// Stops a pipeline made by playhead_start_pipeline (state NULL) and releases it.
static inline void playhead_stop_pipeline(GstElement *pipeline) {
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

/// TRUE when GStreamer has an element factory of this name (a plugin is installed).
static inline gboolean playhead_has_element(const char *name) {
  GstElementFactory *factory = gst_element_factory_find(name);
  if (factory == NULL) return FALSE;
  gst_object_unref(factory);
  return TRUE;
}

#endif
