/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the native loadfile parser. Any input must either
 * compile or be rejected with a message; never crash, hang or leak.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "lang/loadfile.h"
#include "lang/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loadfile_opts opts = { .dialect = DIALECT_NATIVE };
	struct loadfile lf;

	if (!loadfile_parse(&lf, "fuzz", (const char *)data, size, &opts))
		loadfile_release(&lf);
	return 0;
}
