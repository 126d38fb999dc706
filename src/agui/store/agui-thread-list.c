/* agui-thread-list.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-session-store-private.h"
#include "agui-thread-info-private.h"
#include "agui-thread-list.h"

/**
 * AguiThreadList:
 *
 * The threads of an [class@Agui.SessionStore] as a [iface@Gio.ListModel]
 * of [class@Agui.ThreadInfo], pinned ones first, then the most recently
 * updated first, in the manner of `GtkDirectoryList`: it reads the store on the store's worker, says
 * so in [property@Agui.ThreadList:loading], and keeps why the last read
 * failed in [property@Agui.ThreadList:error].
 *
 * Once read, the list follows the store: a saved turn, a rename, a
 * delete or a new thread changes that one item, with an info updated in
 * place. A thread that stays where it is in the order emits
 * `items-changed (position, 1, 1)`; one a turn brings to the top is
 * removed where it was and inserted there, two emissions; a new thread
 * is one insertion, a deleted one one removal. Nothing is read from the
 * disk again for it.
 *
 * With [property@Agui.ThreadList:search] set, the store's worker looks
 * for the text in every thread's messages and the list fills the
 * [property@Agui.ThreadInfo:snippet] of those that contain it (each
 * item whose snippet changed is announced as changed), so that a view
 * can filter by title in memory and show the threads whose messages
 * match as well. The list itself always holds every thread.
 *
 * ```c
 * g_autoptr(AguiThreadList) threads = agui_thread_list_new (store);
 *
 * g_signal_connect (threads, "items-changed", G_CALLBACK (on_threads_changed), self);
 * agui_thread_list_set_search (threads, "tomatoes");
 * ```
 */
struct _AguiThreadList
{
  GObject           parent_instance;
  AguiSessionStore *store;
  char             *search;
  GPtrArray        *items;
  GHashTable       *by_id;
  GError           *error;
  GCancellable     *cancellable;
  GCancellable     *search_cancellable;
  /* Changes heard while the first read is under way, applied on it */
  GPtrArray        *early_changes;
  guint             n_searches;
  guint             loaded : 1;
};

static void agui_thread_list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiThreadList, agui_thread_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      agui_thread_list_model_iface_init))

enum {
  PROP_0,
  PROP_STORE,
  PROP_SEARCH,
  PROP_LOADING,
  PROP_ERROR,
  PROP_N_ITEMS,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

/* GListModel */

static GType
agui_thread_list_get_item_type (GListModel *model)
{
  return AGUI_TYPE_THREAD_INFO;
}

static guint
agui_thread_list_get_n_items (GListModel *model)
{
  return AGUI_THREAD_LIST (model)->items->len;
}

static gpointer
agui_thread_list_get_item (GListModel *model,
                           guint       position)
{
  AguiThreadList *self = AGUI_THREAD_LIST (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
agui_thread_list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agui_thread_list_get_item_type;
  iface->get_n_items = agui_thread_list_get_n_items;
  iface->get_item = agui_thread_list_get_item;
}

/* Helpers */

static void
items_changed (AguiThreadList *self,
               guint           position,
               guint           removed,
               guint           added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

static void
set_loading_around (AguiThreadList *self,
                    gboolean        was_loading)
{
  if (agui_thread_list_is_loading (self) != was_loading)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
set_error (AguiThreadList *self,
           const GError   *error)
{
  if (self->error == NULL && error == NULL)
    return;

  g_clear_error (&self->error);
  self->error = error ? g_error_copy (error) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* Whether @a comes before @b, as the store lists them: pinned threads
 * first, then the most recently updated */
static gboolean
goes_before (AguiThreadInfo *a,
             AguiThreadInfo *b)
{
  if (agui_thread_info_get_pinned (a) != agui_thread_info_get_pinned (b))
    return agui_thread_info_get_pinned (a);

  return _agui_thread_info_get_updated_time (a) > _agui_thread_info_get_updated_time (b);
}

/* Where @info goes: after every thread that goes before it or ties */
static guint
sorted_position (AguiThreadList *self,
                 AguiThreadInfo *info)
{
  guint low = 0, high = self->items->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (!goes_before (info, g_ptr_array_index (self->items, middle)))
        low = middle + 1;
      else
        high = middle;
    }

  return low;
}

static void search_one (AguiThreadList *self,
                        const char     *thread_id);

static void
apply_change (AguiThreadList *self,
              const char     *thread_id,
              AguiThreadInfo *info,
              gboolean        announce)
{
  AguiThreadInfo *old = g_hash_table_lookup (self->by_id, thread_id);
  guint old_position = 0;
  guint position;
  gint64 updated_before;

  if (old != NULL && !g_ptr_array_find (self->items, old, &old_position))
    g_assert_not_reached ();

  if (info == NULL)
    {
      if (old == NULL)
        return;
      g_hash_table_remove (self->by_id, thread_id);
      g_ptr_array_remove_index (self->items, old_position);
      if (announce)
        items_changed (self, old_position, 1, 0);
      return;
    }

  if (old == NULL)
    {
      position = sorted_position (self, info);
      g_ptr_array_insert (self->items, position, g_object_ref (info));
      g_hash_table_insert (self->by_id, g_strdup (agui_thread_info_get_id (info)), info);
      if (announce)
        items_changed (self, position, 0, 1);
      if (self->search != NULL && self->loaded)
        search_one (self, thread_id);
      return;
    }

  updated_before = _agui_thread_info_get_updated_time (old);
  if (!_agui_thread_info_update (old, info))
    return;

  /* The same object moves, so a view's row keeps its item. */
  g_ptr_array_steal_index (self->items, old_position);
  position = sorted_position (self, old);
  g_ptr_array_insert (self->items, position, old);

  if (announce)
    {
      if (position == old_position)
        items_changed (self, position, 1, 1);
      else
        {
          items_changed (self, old_position, 1, 0);
          items_changed (self, position, 0, 1);
        }
    }

  /* A turn changes the messages a search looks at. */
  if (self->search != NULL && self->loaded && updated_before != _agui_thread_info_get_updated_time (old))
    search_one (self, thread_id);
}

typedef struct
{
  char           *thread_id;
  AguiThreadInfo *info;
} EarlyChange;

static void
early_change_free (gpointer data)
{
  EarlyChange *change = data;

  g_free (change->thread_id);
  g_clear_object (&change->info);
  g_free (change);
}

static void
on_thread_changed_cb (AguiThreadList   *self,
                      const char       *thread_id,
                      AguiThreadInfo   *info,
                      AguiSessionStore *store)
{
  EarlyChange *change;

  if (self->loaded)
    {
      apply_change (self, thread_id, info, TRUE);
      return;
    }

  /* The read under way may or may not see it: applied after the read,
   * a change that it saw changes nothing. */
  change = g_new0 (EarlyChange, 1);
  change->thread_id = g_strdup (thread_id);
  change->info = info ? g_object_ref (info) : NULL;
  g_ptr_array_add (self->early_changes, change);
}

/* Sets each item's snippet from @found (thread id → snippet), or clears
 * them all when @found is NULL; runs of changed items are announced
 * together. */
static void
set_snippets (AguiThreadList *self,
              GHashTable     *found,
              const char     *only)
{
  guint run_start = 0, run_length = 0;

  for (guint i = 0; i <= self->items->len; i++)
    {
      gboolean changed = FALSE;

      if (i < self->items->len)
        {
          AguiThreadInfo *info = g_ptr_array_index (self->items, i);
          const char *id = agui_thread_info_get_id (info);

          if (only == NULL || g_str_equal (only, id))
            changed = _agui_thread_info_set_snippet (info, found ? g_hash_table_lookup (found, id) : NULL);
        }

      if (changed)
        {
          if (run_length == 0)
            run_start = i;
          run_length++;
        }
      else if (run_length > 0)
        {
          items_changed (self, run_start, run_length, run_length);
          run_length = 0;
        }
    }
}

typedef struct
{
  AguiThreadList *self;
  char           *search;
  char           *thread_id;
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_object_unref (data->self);
  g_free (data->search);
  g_free (data->thread_id);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SearchData, search_data_free)

static void
on_searched_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SearchData) data = user_data;
  AguiThreadList *self = data->self;
  gboolean was_loading = agui_thread_list_is_loading (self);
  g_autoptr(GHashTable) found = NULL;
  g_autoptr(GError) error = NULL;

  found = _agui_session_store_search_threads_finish (AGUI_SESSION_STORE (object), result, &error);
  self->n_searches--;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_strcmp0 (data->search, self->search) != 0)
    {
      set_loading_around (self, was_loading);
      return;
    }

  set_error (self, error);
  if (found != NULL)
    set_snippets (self, found, data->thread_id);
  set_loading_around (self, was_loading);
}

static void
start_search (AguiThreadList *self,
              const char     *thread_id)
{
  gboolean was_loading = agui_thread_list_is_loading (self);
  SearchData *data = g_new0 (SearchData, 1);

  data->self = g_object_ref (self);
  data->search = g_strdup (self->search);
  data->thread_id = g_strdup (thread_id);
  self->n_searches++;
  _agui_session_store_search_threads_async (self->store, self->search, thread_id,
                                            self->search_cancellable, on_searched_cb, data);
  set_loading_around (self, was_loading);
}

static void
search_one (AguiThreadList *self,
            const char     *thread_id)
{
  start_search (self, thread_id);
}

static void
on_loaded_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(AguiThreadList) self = user_data;
  gboolean was_loading = agui_thread_list_is_loading (self);
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GPtrArray) early = NULL;
  g_autoptr(GError) error = NULL;

  infos = _agui_session_store_list_thread_infos_finish (AGUI_SESSION_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->loaded = TRUE;
  set_error (self, error);

  if (infos != NULL)
    {
      for (guint i = 0; i < infos->len; i++)
        {
          AguiThreadInfo *info = g_ptr_array_index (infos, i);

          g_ptr_array_add (self->items, g_object_ref (info));
          g_hash_table_insert (self->by_id, g_strdup (agui_thread_info_get_id (info)), info);
        }
    }

  early = g_steal_pointer (&self->early_changes);
  self->early_changes = g_ptr_array_new_with_free_func (early_change_free);
  for (guint i = 0; i < early->len; i++)
    {
      EarlyChange *change = g_ptr_array_index (early, i);

      apply_change (self, change->thread_id, change->info, FALSE);
    }

  if (self->items->len > 0)
    items_changed (self, 0, 0, self->items->len);

  if (self->search != NULL)
    start_search (self, NULL);

  set_loading_around (self, was_loading);
}

/* GObject */

static void
agui_thread_list_constructed (GObject *object)
{
  AguiThreadList *self = AGUI_THREAD_LIST (object);

  G_OBJECT_CLASS (agui_thread_list_parent_class)->constructed (object);

  g_return_if_fail (AGUI_IS_SESSION_STORE (self->store));

  g_signal_connect_object (self->store, "thread-changed", G_CALLBACK (on_thread_changed_cb),
                           self, G_CONNECT_SWAPPED);
  _agui_session_store_list_thread_infos_async (self->store, self->cancellable, on_loaded_cb,
                                               g_object_ref (self));
}

static void
agui_thread_list_dispose (GObject *object)
{
  AguiThreadList *self = AGUI_THREAD_LIST (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->search_cancellable);

  G_OBJECT_CLASS (agui_thread_list_parent_class)->dispose (object);
}

static void
agui_thread_list_finalize (GObject *object)
{
  AguiThreadList *self = AGUI_THREAD_LIST (object);

  g_clear_object (&self->store);
  g_free (self->search);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->early_changes, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->search_cancellable);

  G_OBJECT_CLASS (agui_thread_list_parent_class)->finalize (object);
}

static void
agui_thread_list_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AguiThreadList *self = AGUI_THREAD_LIST (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_SEARCH:
      g_value_set_string (value, self->search);
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, agui_thread_list_is_loading (self));
      break;

    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_thread_list_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AguiThreadList *self = AGUI_THREAD_LIST (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_assert (self->store == NULL);
      self->store = g_value_dup_object (value);
      break;

    case PROP_SEARCH:
      agui_thread_list_set_search (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_thread_list_class_init (AguiThreadListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agui_thread_list_constructed;
  object_class->dispose = agui_thread_list_dispose;
  object_class->finalize = agui_thread_list_finalize;
  object_class->get_property = agui_thread_list_get_property;
  object_class->set_property = agui_thread_list_set_property;

  /**
   * AguiThreadList:store:
   *
   * The store whose threads the list holds.
   */
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGUI_TYPE_SESSION_STORE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadList:search:
   *
   * Text to look for in the threads' messages, ignoring case, or %NULL;
   * the snippets of the threads that contain it are filled.
   */
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadList:loading:
   *
   * Whether the list waits for the store: its first read, or a search.
   */
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, TRUE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadList:error:
   *
   * Why the last read or search failed, or %NULL.
   */
  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadList:n-items:
   *
   * How many threads the list holds.
   */
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_thread_list_init (AguiThreadList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->early_changes = g_ptr_array_new_with_free_func (early_change_free);
  self->cancellable = g_cancellable_new ();
  self->search_cancellable = g_cancellable_new ();
}

/* API */

/**
 * agui_thread_list_new:
 * @store: a session store
 *
 * Makes a list of @store's threads and starts reading them, on the
 * store's worker.
 *
 * Returns: (transfer full): a new thread list
 */
AguiThreadList *
agui_thread_list_new (AguiSessionStore *store)
{
  g_return_val_if_fail (AGUI_IS_SESSION_STORE (store), NULL);

  return g_object_new (AGUI_TYPE_THREAD_LIST, "store", store, NULL);
}

/**
 * agui_thread_list_get_store:
 * @self: a thread list
 *
 * Returns: (transfer none): the store the list reads
 */
AguiSessionStore *
agui_thread_list_get_store (AguiThreadList *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_LIST (self), NULL);

  return self->store;
}

/**
 * agui_thread_list_get_search:
 * @self: a thread list
 *
 * Returns: (nullable): the text looked for in the threads' messages
 */
const char *
agui_thread_list_get_search (AguiThreadList *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_LIST (self), NULL);

  return self->search;
}

/**
 * agui_thread_list_set_search:
 * @self: a thread list
 * @search: (nullable): text to look for, or %NULL (or empty) for none
 *
 * Looks for @search in every thread's messages, on the store's worker;
 * a search still under way is abandoned. When the answer comes, each
 * thread's [property@Agui.ThreadInfo:snippet] says where it matched (or
 * is %NULL), and the items whose snippet changed are announced.
 * Without a search every snippet is cleared at once.
 */
void
agui_thread_list_set_search (AguiThreadList *self,
                             const char     *search)
{
  g_return_if_fail (AGUI_IS_THREAD_LIST (self));

  if (search != NULL && search[0] == '\0')
    search = NULL;
  if (g_strcmp0 (search, self->search) == 0)
    return;

  g_free (self->search);
  self->search = g_strdup (search);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_cancellable = g_cancellable_new ();

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);

  if (!self->loaded)
    return;

  if (self->search == NULL)
    set_snippets (self, NULL, NULL);
  else
    start_search (self, NULL);
}

/**
 * agui_thread_list_is_loading:
 * @self: a thread list
 *
 * Returns: whether the list waits for the store (its first read, or a
 *   search)
 */
gboolean
agui_thread_list_is_loading (AguiThreadList *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_LIST (self), FALSE);

  return !self->loaded || self->n_searches > 0;
}

/**
 * agui_thread_list_get_error:
 * @self: a thread list
 *
 * Returns: (nullable) (transfer none): why the last read or search failed
 */
const GError *
agui_thread_list_get_error (AguiThreadList *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_LIST (self), NULL);

  return self->error;
}

/**
 * agui_thread_list_lookup:
 * @self: a thread list
 * @thread_id: a thread's id
 * @position: (out) (optional): where the thread is in the list
 *
 * Returns: (nullable) (transfer none): the thread's info, or %NULL if
 *   the list does not hold it
 */
AguiThreadInfo *
agui_thread_list_lookup (AguiThreadList *self,
                         const char     *thread_id,
                         guint          *position)
{
  AguiThreadInfo *info;

  g_return_val_if_fail (AGUI_IS_THREAD_LIST (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  info = g_hash_table_lookup (self->by_id, thread_id);
  if (info != NULL && position != NULL)
    g_ptr_array_find (self->items, info, position);

  return info;
}
