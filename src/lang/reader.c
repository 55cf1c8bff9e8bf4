/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a loadfile: finding it (a path or a built-in name), telling its
 * dialect, handing it to the native parser or the dbench translator
 * through a builder, and naming what was read by its SHA-256.
 */
#include <config.h>
#include "lang/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "lang/builder.h"
#include "lang/builtin.h"
#include "lang/dbench.h"
#include "lang/loadfile.h"
#include "lang/native.h"

/* SHA-256 of the bytes read, so results name exactly what was run. */
static void hash_hex(const char *buf, size_t len, char *hex)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)buf);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (unsigned int i = 0; i < sizeof(digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

int loadfile_parse(struct loadfile *lf, const char *name, const char *buf,
		   size_t len, const struct loadfile_opts *opts)
{
	static const struct loadfile_opts defaults;
	enum loadfile_dialect dialect;
	struct builder b;
	int ret;

	if (!opts)
		opts = &defaults;
	memset(lf, 0, sizeof(*lf));
	lf->name = xstrdup(name);
	strtab_init(&lf->strings);
	dialect = opts->dialect;
	if (dialect == DIALECT_AUTO)
		dialect = dbench_detect(buf, len) ? DIALECT_DBENCH :
						    DIALECT_NATIVE;
	lf->dialect = dialect;
	lf->per_thread = dialect == DIALECT_DBENCH && opts->per_thread > 1 ?
				 opts->per_thread :
				 1;
	builder_init(&b, lf);
	if (dialect == DIALECT_DBENCH)
		ret = dbench_parse(&b, buf, len, opts);
	else
		ret = native_parse(&b, buf, len, opts);
	if (!ret)
		builder_finish(&b);
	builder_release(&b);
	if (ret) {
		loadfile_release(lf);
		return -EINVAL;
	}
	hash_hex(buf, len, lf->sha256);
	return 0;
}

/* The 1-based line of @b[0..@len) that byte @len would be in. */
static unsigned long line_at(const char *b, size_t len)
{
	unsigned long line = 1;

	for (size_t i = 0; i < len; i++)
		line += b[i] == '\n';
	return line;
}

/*
 * Read all of @fd, at most the limits; -EFBIG with the message
 * "PATH:LINE: loadfile too large (limit N ...)" past them.
 */
static int read_bounded(int fd, const char *path, char **buf, size_t *len)
{
	size_t alloc = 1 << 16, n = 0;
	unsigned long lines = 0;
	char *b = xmalloc(alloc);

	for (;;) {
		size_t want;
		ssize_t r;

		if (n == alloc) {
			alloc *= 2;
			b = xrealloc(b, alloc);
		}
		/* one byte past the limit tells a file over it */
		want = alloc - n;
		if (want > LOADFILE_MAX_BYTES + 1 - n)
			want = LOADFILE_MAX_BYTES + 1 - n;
		/* EINTR: SIGINT or SIGTERM (on a FIFO, say), which stops us */
		r = read(fd, b + n, want);
		if (r < 0) {
			r = -errno;
			free(b);
			return (int)r;
		}
		if (!r)
			break;
		for (size_t i = n; i < n + (size_t)r; i++) {
			if (lines == LOADFILE_MAX_LINES) {
				free(b);
				error("%s:%u: loadfile too large (limit %u lines)",
				      path, LOADFILE_MAX_LINES + 1,
				      LOADFILE_MAX_LINES);
				return -EFBIG;
			}
			lines += b[i] == '\n';
		}
		n += (size_t)r;
		/* the parser stops at the first NUL: no need to read on */
		if (memchr(b + n - (size_t)r, '\0', (size_t)r))
			break;
		if (n > LOADFILE_MAX_BYTES) {
			error("%s:%lu: loadfile too large (limit %u bytes)",
			      path, line_at(b, LOADFILE_MAX_BYTES),
			      LOADFILE_MAX_BYTES);
			free(b);
			return -EFBIG;
		}
	}
	*buf = b;
	*len = n;
	return 0;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	ret = read_bounded(fd, path, buf, len);
	close(fd);
	return ret;
}

int loadfile_load(struct loadfile *lf, const char *spec,
		  const struct loadfile_opts *opts)
{
	const struct builtin_loadfile *b;
	char *buf = NULL, name[512];
	size_t len = 0;
	int ret;

	ret = read_file(spec, &buf, &len);
	if (ret == -EINTR)
		return ret;
	/* too large: a bad loadfile, said */
	if (ret == -EFBIG)
		return -EINVAL;
	if (!ret) {
		ret = loadfile_parse(lf, spec, buf, len, opts);
		free(buf);
		return ret;
	}
	/* a directory is never a loadfile: "statfs" in a directory that
	 * holds one named so still means the built-in */
	if ((ret == -ENOENT || ret == -EISDIR) && !strchr(spec, '/')) {
		b = builtin_find(spec);
		if (b) {
			snprintf(name, sizeof(name), "%s (built-in)", b->name);
			return loadfile_parse(lf, name, b->text,
					      strlen(b->text), opts);
		}
	}
	if (ret == -ENOENT && !strchr(spec, '/')) {
		error("no loadfile '%s': not a file and not a built-in loadfile (see --list-loadfiles)",
		      spec);
		return ret;
	}
	error("cannot read loadfile '%s': %s", spec, strerror(-ret));
	return ret;
}
