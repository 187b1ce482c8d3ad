#define _GNU_SOURCE
#include "PlexusSystem.h"
#include <pthread.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

int plexus_current_stack(uintptr_t *low, size_t *size) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
    size_t length = pthread_get_stacksize_np(thread);
    if (length == 0 || top < length) return -1;
    *low = top - length;
    *size = length;
    return 0;
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = NULL;
    size_t length = 0;
    int failed = pthread_attr_getstack(&attributes, &address, &length);
    pthread_attr_destroy(&attributes);
    if (failed || address == NULL || length == 0) return -1;
    *low = (uintptr_t)address;
    *size = length;
    return 0;
#else
    (void)low;
    (void)size;
    return -1;
#endif
}

__attribute__((noinline)) uintptr_t plexus_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

int plexus_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return getpid() == (pid_t)syscall(SYS_gettid);
#else
    return 0;
#endif
}
