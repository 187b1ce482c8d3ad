// What Plexus needs from the operating system that Swift cannot reach portably.
#ifndef PLEXUS_SYSTEM_H
#define PLEXUS_SYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include "PlexusRecording.h"  // graph report (SPEC §21)

/// Writes the lowest address and the size of the calling thread's stack. Returns 0 on success, -1 where the bounds
/// cannot be read. (Linux needs `pthread_getattr_np`, which is only declared with _GNU_SOURCE.)
int plexus_current_stack(uintptr_t *low, size_t *size);

/// The calling function's frame address: the real stack, also under AddressSanitizer, whose "fake stack" moves
/// locals whose address is taken to the heap.
uintptr_t plexus_frame_address(void);

/// 1 on the process's main thread (where the main actor runs its synchronous work), 0 elsewhere.
int plexus_is_main_thread(void);

#endif
