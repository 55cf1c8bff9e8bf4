/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URING_H
#define VB_ENGINE_URING_H

#include "engine/engine.h"

/*
 * -e uring's checks before anything is created (uringcheck in uring.c):
 * io_uring enabled, the setup flags known, every opcode of @lf's ops
 * probed, and with @strict no op that falls back to a system call.
 */
int uring_usable(const struct engine *e, const struct loadfile *lf,
		 bool strict);

#endif /* VB_ENGINE_URING_H */
