/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdscale's ring: openat and close, or openat_direct and close_direct
 * into a sparse file table, through the engine's ring helpers.
 */
#include <config.h>
#include "fdscale/fdring.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "base/compiler.h"
#include "base/msg.h"
#include "engine/uring.h"

/* slots filled by one IORING_REGISTER_FILES_UPDATE */
#define FILL_CHUNK 1024

#define WHO "fdscale --engine uring"

int fdring_usable(bool fixed)
{
	static const unsigned char codes[] = { IORING_OP_OPENAT,
					       IORING_OP_CLOSE };
	struct io_uring_probe *probe;
	struct fdring f;
	int ret = uring_kernel_probe(WHO, &probe);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < ARRAY_SIZE(codes) && !ret; i++) {
		if (io_uring_opcode_supported(probe, codes[i]))
			continue;
		error("%s: the timed %s needs %s, which this kernel's io_uring lacks",
		      WHO, codes[i] == IORING_OP_OPENAT ? "open" : "close",
		      uring_opcode_name(codes[i]));
		ret = -EINVAL;
	}
	io_uring_free_probe(probe);
	/* a sparse table (Linux 5.19), where --uring-fixed needs one */
	if (!ret && fixed) {
		ret = fdring_init(&f, true, 1);
		if (!ret)
			fdring_release(&f);
	}
	return ret;
}

int fdring_init(struct fdring *f, bool fixed, uint64_t slots)
{
	int ret = uring_ring_init(&f->r, 1);

	f->fixed = fixed;
	if (ret)
		return error("%s: cannot create a ring: io_uring_setup(): %s",
			     WHO, strerror(-ret));
	if (!fixed)
		return 0;
	ret = io_uring_register_files_sparse(&f->r.ring, (unsigned int)slots);
	if (ret) {
		uring_ring_release(&f->r);
		return error(
			"%s --uring-fixed: cannot register a file table of %llu slots: io_uring_register(IORING_REGISTER_FILES2): %s",
			WHO, (unsigned long long)slots, strerror(-ret));
	}
	return 0;
}

void fdring_release(struct fdring *f)
{
	/* the file table goes with the ring */
	uring_ring_release(&f->r);
}

int fdring_fill(struct fdring *f, uint64_t from, uint64_t to, int fd)
{
	int fds[FILL_CHUNK];

	for (unsigned int i = 0; i < FILL_CHUNK; i++)
		fds[i] = fd;
	while (from < to) {
		unsigned int n = to - from < FILL_CHUNK ?
					 (unsigned int)(to - from) :
					 FILL_CHUNK;
		int ret = io_uring_register_files_update(
			&f->r.ring, (unsigned int)from, fds, n);

		if (ret < 0)
			return error(
				"%s --uring-fixed: cannot fill slots %llu to %llu: io_uring_register(IORING_REGISTER_FILES_UPDATE): %s",
				WHO, (unsigned long long)from,
				(unsigned long long)(from + n - 1),
				strerror(-ret));
		from += n;
	}
	return 0;
}

int fdring_open(struct fdring *f, const char *path)
{
	struct io_uring_sqe *e = io_uring_get_sqe(&f->r.ring);

	/* liburing 2.3 adds 1 to the index it is given: ALLOC - 1 asks
	 * for ALLOC, as its own accept_direct helpers do */
	if (f->fixed)
		io_uring_prep_openat_direct(e, AT_FDCWD, path, O_RDONLY, 0,
					    IORING_FILE_INDEX_ALLOC - 1);
	else
		io_uring_prep_openat(e, AT_FDCWD, path, O_RDONLY, 0);
	return uring_ring_run(&f->r);
}

int fdring_close(struct fdring *f, int fd)
{
	struct io_uring_sqe *e = io_uring_get_sqe(&f->r.ring);

	if (f->fixed)
		io_uring_prep_close_direct(e, (unsigned int)fd);
	else
		io_uring_prep_close(e, fd);
	return uring_ring_run(&f->r);
}
