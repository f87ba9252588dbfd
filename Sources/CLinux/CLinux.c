// What include/CLinux.h cannot say itself: values that glibc shows only with _GNU_SOURCE.
#define _GNU_SOURCE
#include <spawn.h>
#include <sys/mman.h>

#include "CLinux.h"

const short CLinux_POSIX_SPAWN_SETSID = POSIX_SPAWN_SETSID;

int CLinux_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int CLinux_memfd_create(const char *name, unsigned int flags) {
    return memfd_create(name, flags);
}

const unsigned int CLinux_MFD_CLOEXEC = MFD_CLOEXEC;
