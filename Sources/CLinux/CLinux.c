// What include/CLinux.h cannot say itself: values that glibc shows only with _GNU_SOURCE.
#define _GNU_SOURCE
#include <spawn.h>

#include "CLinux.h"

const short CLinux_POSIX_SPAWN_SETSID = POSIX_SPAWN_SETSID;

int CLinux_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
