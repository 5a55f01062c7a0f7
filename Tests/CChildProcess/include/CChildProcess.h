#ifndef RASTERKIT_CCHILDPROCESS_H
#define RASTERKIT_CCHILDPROCESS_H

// What the tests' ChildProcess (RasterKitTestSupport/ChildProcess.swift) needs of glibc beyond
// POSIX. Swift's Glibc module does not define _GNU_SOURCE, under which glibc declares these, so
// they are wrapped here in C.

#include <spawn.h>

// pipe2(fds, O_CLOEXEC): a pipe no child inherits unless it is given to it.
int rk_pipe_cloexec(int fds[2]);

// Closes, in the child, every descriptor from `lowest` up (posix_spawn_file_actions_addclosefrom_np).
int rk_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

// Changes, in the child, to `path` (posix_spawn_file_actions_addchdir_np).
int rk_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
