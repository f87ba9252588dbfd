// Linux interfaces that Swift's Glibc module does not bring in (no X here: that is CX11).
#ifndef GESTURE_BRIDGE_CLINUX_H
#define GESTURE_BRIDGE_CLINUX_H

#include <spawn.h>
#include <stdbool.h>
#include <sys/wait.h>

// signalfd(2) and struct signalfd_siginfo: the header is not part of Glibc's module map.
#include <sys/signalfd.h>

// eventfd(2): the header is not part of Glibc's module map.
#include <sys/eventfd.h>

// malloc_trim(3): <malloc.h> is not part of Glibc's module map.
#include <malloc.h>

// WIFEXITED, WEXITSTATUS and WTERMSIG are function-like macros, which Swift does not import.
static inline bool CLinux_WIFEXITED(int status) { return WIFEXITED(status); }
static inline int CLinux_WEXITSTATUS(int status) { return WEXITSTATUS(status); }
static inline int CLinux_WTERMSIG(int status) { return WTERMSIG(status); }

// POSIX_SPAWN_SETSID (glibc >= 2.26) needs _GNU_SOURCE, which Swift's Glibc module lacks: CLinux.c exports glibc's value.
extern const short CLinux_POSIX_SPAWN_SETSID;

// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34) is declared only with _GNU_SOURCE too:
// CLinux.c calls it for Swift.
int CLinux_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

// memfd_create(2) and MFD_CLOEXEC are declared only with _GNU_SOURCE too: CLinux.c calls it for Swift.
int CLinux_memfd_create(const char *name, unsigned int flags);
extern const unsigned int CLinux_MFD_CLOEXEC;

#endif
