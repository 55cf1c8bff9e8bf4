/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URING_H
#define VB_ENGINE_URING_H

#include "engine/engine.h"

struct io_uring_probe;

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

/*
 * What every user of io_uring checks first (-e uring, fdscale --engine
 * uring), @who naming it in the messages: a ring with the engine's setup
 * flags (refused with the reason: kernel.io_uring_disabled, no io_uring,
 * flags too new), then this kernel's opcodes (io_uring_get_probe_ring()),
 * less those of uring_test_mask(). 0 with *@probe, which the caller frees
 * with io_uring_free_probe(), or -errno with the reason printed.
 */
int uring_kernel_probe(const char *who, struct io_uring_probe **probe);

/* IORING_OP_@code's name, for the opcodes vfsbench submits; else NULL. */
const char *uring_opcode_name(unsigned int code);

/*
 * For tests only (VFSBENCH_TEST_URING_NO_OPCODES, vfsbench(1)): make
 * uring_kernel_probe() say that the opcodes of @names, a comma list of names
 * such as "IORING_OP_STATX,IORING_OP_OPENAT", are missing, as on a kernel
 * without them. Called before any thread starts. 0, or -EINVAL with the
 * unknown name printed.
 */
int uring_test_mask(const char *names);

#endif /* VB_ENGINE_URING_H */
