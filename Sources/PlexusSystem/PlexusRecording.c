#include "PlexusRecording.h"

long plexus_active_recorders = 0;
