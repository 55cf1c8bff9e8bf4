/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -e uring's refusals, before anything is created: io_uring disabled or
 * absent, a ring that cannot take the engine's setup flags, an opcode
 * that this kernel's io_uring lacks (io_uring_get_probe_ring()), and with
 * --uring-strict an op that would fall back to a system call.
 */
#include <config.h>
#include "engine/uring.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler.h"
#include "base/msg.h"
#include "engine/uringring.h"
#include "lang/loadfile.h"

/* The opcodes each op submits; 0 ends a list (IORING_OP_NOP is unused). */
static const unsigned char uring_opcodes[OP_NR][2] = {
	[OP_STAT] = { IORING_OP_STATX },
	[OP_LSTAT] = { IORING_OP_STATX },
	[OP_FSTAT] = { IORING_OP_STATX },
	[OP_OPEN] = { IORING_OP_OPENAT, IORING_OP_OPENAT2 },
	[OP_CREATE] = { IORING_OP_OPENAT, IORING_OP_CLOSE },
	[OP_CLOSE] = { IORING_OP_CLOSE },
	[OP_PREAD] = { IORING_OP_READ },
	[OP_PWRITE] = { IORING_OP_WRITE },
	[OP_READ] = { IORING_OP_READ },
	[OP_FSYNC] = { IORING_OP_FSYNC },
	[OP_FDATASYNC] = { IORING_OP_FSYNC },
	[OP_UNLINK] = { IORING_OP_UNLINKAT },
	[OP_MKDIR] = { IORING_OP_MKDIRAT },
	[OP_RMDIR] = { IORING_OP_UNLINKAT },
	[OP_RENAME] = { IORING_OP_RENAMEAT },
	[OP_LINK] = { IORING_OP_LINKAT },
	[OP_SYMLINK] = { IORING_OP_SYMLINKAT },
	[OP_READDIR] = { IORING_OP_OPENAT, IORING_OP_CLOSE },
	[OP_PROBE] = { IORING_OP_OPENAT2, IORING_OP_CLOSE },
};

static const char *const opcode_name[] = {
	[IORING_OP_STATX] = "IORING_OP_STATX",
	[IORING_OP_OPENAT] = "IORING_OP_OPENAT",
	[IORING_OP_OPENAT2] = "IORING_OP_OPENAT2",
	[IORING_OP_CLOSE] = "IORING_OP_CLOSE",
	[IORING_OP_READ] = "IORING_OP_READ",
	[IORING_OP_WRITE] = "IORING_OP_WRITE",
	[IORING_OP_FSYNC] = "IORING_OP_FSYNC",
	[IORING_OP_UNLINKAT] = "IORING_OP_UNLINKAT",
	[IORING_OP_MKDIRAT] = "IORING_OP_MKDIRAT",
	[IORING_OP_RENAMEAT] = "IORING_OP_RENAMEAT",
	[IORING_OP_LINKAT] = "IORING_OP_LINKAT",
	[IORING_OP_SYMLINKAT] = "IORING_OP_SYMLINKAT",
};

/* uring_test_mask(): the opcodes the probe is made to lack */
static bool masked[ARRAY_SIZE(opcode_name)];

const char *uring_opcode_name(unsigned int code)
{
	return code < ARRAY_SIZE(opcode_name) ? opcode_name[code] : NULL;
}

int uring_test_mask(const char *names)
{
	const char *s = names;

	while (*s) {
		size_t len = strcspn(s, ",");
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(opcode_name); i++)
			if (opcode_name[i] && strlen(opcode_name[i]) == len &&
			    !strncmp(opcode_name[i], s, len))
				break;
		if (i == ARRAY_SIZE(opcode_name)) {
			error("VFSBENCH_TEST_URING_NO_OPCODES: unknown opcode '%.*s' (expected IORING_OP_ names, such as IORING_OP_STATX)",
			      (int)len, s);
			return -EINVAL;
		}
		masked[i] = true;
		s += len + (s[len] == ',');
	}
	return 0;
}

/*
 * Why io_uring_setup(2) failed with @err, in the user's terms, @who
 * naming the command. EPERM is what kernel.io_uring_disabled gives (2,
 * or 1 outside io_uring_group): the message names the sysctl and its
 * value, and when that is not what refused, says what else can.
 */
static int refuse_setup(const char *who, int err)
{
	char disabled[16] = "";
	FILE *f;

	if (err == -EINVAL) {
		error("%s: io_uring_setup() refused IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN (Linux 6.1)",
		      who);
		return err;
	}
	if (err == -ENOSYS) {
		error("%s: this kernel has no io_uring (io_uring_setup(): %s)",
		      who, strerror(-err));
		return err;
	}
	f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	if (f) {
		if (!fgets(disabled, sizeof(disabled), f))
			disabled[0] = '\0';
		fclose(f);
		disabled[strcspn(disabled, "\n")] = '\0';
	}
	if (err == -EPERM && disabled[0] && strcmp(disabled, "0"))
		error("%s: io_uring is disabled (kernel.io_uring_disabled = %s): io_uring_setup(): %s",
		      who, disabled, strerror(-err));
	else if (err == -EPERM)
		error("%s: io_uring is refused: io_uring_setup(): %s, with kernel.io_uring_disabled %s: a seccomp filter or a security module refuses it",
		      who, strerror(-err),
		      disabled[0] ? "= 0" : "absent (before Linux 6.6)");
	else
		error("%s: cannot create a ring: io_uring_setup(): %s", who,
		      strerror(-err));
	return err;
}

/* --uring-strict: the ops that would fall back, named in one message. */
static int refuse_fallbacks(const struct engine *e, const struct loadfile *lf)
{
	bool seen[OP_NR] = { false };
	char names[512] = "";
	size_t n = 0;

	for (unsigned int i = 0; i < lf->nops; i++) {
		enum op_id id = (enum op_id)lf->ops[i].id;

		if (!e->fallback[id] || seen[id])
			continue;
		seen[id] = true;
		n += (size_t)snprintf(names + n,
				      n < sizeof(names) ? sizeof(names) - n : 0,
				      "%s%s (%s)", n ? ", " : "",
				      op_table[id].name, e->fallback[id]);
	}
	if (!n)
		return 0;
	error("%s: --uring-strict: ops with no io_uring opcode, which would run as system calls: %s",
	      lf->name, names);
	return -EINVAL;
}

bool uring_handle_direct(const struct loadfile *lf, unsigned int h,
			 const struct op **why)
{
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];

		if (!op->has_handle || op->handle != h)
			continue;
		switch (op->id) {
		case OP_OPEN:
		case OP_CLOSE:
		case OP_PREAD:
		case OP_PWRITE:
		case OP_FSYNC:
		case OP_FDATASYNC:
			continue;
		default:
			*why = op;
			return false;
		}
	}
	return true;
}

/* --uring-fixed: a note for each handle that stays a plain fd. */
static void note_plain_handles(const struct loadfile *lf)
{
	for (unsigned int h = 0; h < lf->nhandles; h++) {
		const struct op *why;

		if (!uring_handle_direct(lf, h, &why))
			warning("%s:%u: --uring-fixed: op '%s' cannot take a direct descriptor: handle @%u opens as a plain fd",
				lf->name, why->line, op_table[why->id].name,
				h + 1);
	}
}

int uring_kernel_probe(const char *who, struct io_uring_probe **probe)
{
	struct uring_ring r;
	int ret = uring_ring_init(&r, 1);

	*probe = NULL;
	if (ret)
		return refuse_setup(who, ret);
	*probe = io_uring_get_probe_ring(&r.ring);
	uring_ring_release(&r);
	if (!*probe) {
		error("%s: io_uring_register(IORING_REGISTER_PROBE) failed",
		      who);
		return -EIO;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(masked); i++)
		if (masked[i] && i < (*probe)->ops_len)
			(*probe)->ops[i].flags &= ~IO_URING_OP_SUPPORTED;
	return 0;
}

int uring_usable(const struct engine *e, const struct loadfile *lf, bool strict,
		 bool fixed)
{
	struct io_uring_probe *probe;
	int ret = uring_kernel_probe("-e uring", &probe);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < lf->nops && !ret; i++) {
		const struct op *op = &lf->ops[i];

		for (unsigned int k = 0; k < 2; k++) {
			int code = uring_opcodes[op->id][k];

			if (!code || io_uring_opcode_supported(probe, code))
				continue;
			error_at(
				lf->name, op->line, 1,
				"op '%s' needs %s, which this kernel's io_uring lacks",
				op_table[op->id].name, opcode_name[code]);
			ret = -EINVAL;
			break;
		}
	}
	io_uring_free_probe(probe);
	if (!ret && strict)
		ret = refuse_fallbacks(e, lf);
	if (!ret && fixed)
		note_plain_handles(lf);
	return ret;
}
