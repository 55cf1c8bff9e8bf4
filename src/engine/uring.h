/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URING_H
#define VB_ENGINE_URING_H

#include "engine/engine.h"

/*
 * -e uring's checks before anything is created (uringcheck in uring.c):
 * io_uring enabled, the setup flags known, every opcode of @lf's ops
 * probed, and with @strict no op that falls back to a system call; with
 * @fixed, the handles that cannot be direct descriptors are named in a
 * note on stderr (they open as plain fds).
 */
int uring_usable(const struct engine *e, const struct loadfile *lf, bool strict,
		 bool fixed);

/*
 * --uring-fixed: may handle @h of @lf be a direct descriptor? Only when
 * every op on it takes one (open, close, pread, pwrite, fsync,
 * fdatasync); else @why is the first op that cannot (its line in *@line).
 */
bool uring_handle_direct(const struct loadfile *lf, unsigned int h,
			 const struct op **why);

#endif /* VB_ENGINE_URING_H */
