/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: dbench dialect detection and translation. The first
 * byte picks the translation options, so every combination is explored.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "lang/dbench.h"
#include "lang/loadfile.h"
#include "lang/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loadfile_opts opts = { .dialect = DIALECT_DBENCH,
				      .basedir = "/base" };
	struct loadfile lf;
	uint8_t flags;

	if (!size)
		return 0;
	flags = data[0];
	opts.sync_open = flags & 1;
	opts.sync_dirs = flags & 2;
	opts.fsync_writes = flags & 4;
	opts.no_resolve = flags & 8;
	opts.fsinfo = (enum fsinfo_call)((flags >> 4) % 3);
	if (flags & 0x80)
		opts.dialect = DIALECT_AUTO;
	dbench_detect((const char *)data + 1, size - 1);
	if (!loadfile_parse(&lf, "fuzz", (const char *)data + 1, size - 1,
			    &opts))
		loadfile_release(&lf);
	return 0;
}
