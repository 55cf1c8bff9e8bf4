/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_FDSCALE_FDRING_H
#define VB_FDSCALE_FDRING_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/uringring.h"

/*
 * struct fdring: fdscale's opens and closes through io_uring (fdscale
 * --engine uring), one ring per worker thread, made and used by that
 * thread alone (the engine's ring, engine/uringring.h: one op submitted
 * and reaped at a time).
 *
 * Without --uring-fixed the ring's openat and close work on the fd table,
 * as open(2) and close(2) do. With it the table is the ring's own file
 * table: a sparse one of as many slots as the largest step, filled
 * (untimed) with references to one open file, and each timed open is an
 * openat_direct into the slot the kernel allocates
 * (IORING_FILE_INDEX_ALLOC): the one just freed by close_direct, as open(2)
 * gets the lowest free fd back. The fd table does not grow.
 */
struct fdring {
	struct uring_ring r;
	bool fixed;
};

/*
 * Before anything runs: can this kernel do what fdscale --engine uring
 * (with @fixed, --uring-fixed) submits? 0, or -errno with the reason
 * printed (uring_kernel_probe()'s refusals, a missing opcode, no sparse file
 * table).
 */
int fdring_usable(bool fixed);

/*
 * The calling thread's ring, with a file table of @slots when @fixed:
 * 0 or -errno, message printed.
 */
int fdring_init(struct fdring *f, bool fixed, uint64_t slots);
void fdring_release(struct fdring *f);

/*
 * --uring-fixed: fill slots @from to @to - 1 with references to @fd (one
 * io_uring_register(IORING_REGISTER_FILES_UPDATE) a chunk of them): 0 or
 * -errno, message printed.
 */
int fdring_fill(struct fdring *f, uint64_t from, uint64_t to, int fd);

/*
 * openat(AT_FDCWD, @path, O_RDONLY) through the ring: an fd, or with
 * --uring-fixed the slot it took; or -errno.
 */
int fdring_open(struct fdring *f, const char *path);

/* Close what fdring_open() returned: 0 or -errno. */
int fdring_close(struct fdring *f, int fd);

#endif /* VB_FDSCALE_FDRING_H */
