// The calling thread's resolution graph, kept where the resolve path reads it inline.
#ifndef PLEXUS_THREAD_GRAPH_H
#define PLEXUS_THREAD_GRAPH_H

/// The resolution graph installed on the calling thread (an unretained `ResolutionGraph`), or null. The thread's own
/// graph is also kept in a pthread key, whose destructor releases it when the thread exits; this variable is what
/// resolves read: one load from thread-local storage, where `pthread_getspecific` was a call behind a `swift_once`.
extern _Thread_local void *plexus_thread_graph;

static inline void *plexus_thread_graph_get(void) {
    return plexus_thread_graph;
}

static inline void plexus_thread_graph_set(void *graph) {
    plexus_thread_graph = graph;
}

#endif
