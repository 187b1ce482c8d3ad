#include "PlexusRecording.h"

long plexus_active_recorders = 0;
long plexus_shared_replaced = 0;
long plexus_verbose_requested = 0;
