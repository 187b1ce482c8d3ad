#include "PlexusThreadGraph.h"

_Thread_local void *plexus_thread_graph = 0;
