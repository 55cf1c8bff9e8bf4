/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: vfsbench record's strace log reader and the converter
 * behind it (--from-trace). Any input must be converted or rejected with
 * a message; never crash, hang or leak.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/record.h"
#include "lang/strace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *nl;
	struct strace s;
	struct strace_call c;
	struct record r;
	struct record_header h = { "cmd", "kernel", "date", 1 };
	FILE *f;
	int ret = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	strace_init(&s, "fuzz");
	record_init(&r, "/r", "/r", NULL, 0);
	/* lines as recorder.c reads them: a NUL ends the text */
	for (line = text; !ret && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		ret = strace_line(&s, line, &c);
		if (ret > 0) {
			record_call(&r, &c);
			ret = 0;
		}
	}
	if (!ret && !strace_end(&s)) {
		f = fopen("/dev/null", "w");
		if (f) {
			record_write(&r, &h, f);
			fclose(f);
		}
	}
	record_release(&r);
	strace_release(&s);
	free(text);
	return 0;
}
