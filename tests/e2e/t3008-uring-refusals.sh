#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='io_uring refusals of -e uring and fdscale --engine uring: each gives its message, exit 2, nothing created'
. "$srcdir/tests/e2e/lib.sh"
SQ="'"

if ! vfsbench -q -e uring -c default.load --loops 1 -D "$TRASH" 1 \
	>/dev/null 2>uring-err; then
	test_skip_all "io_uring unusable here: $(cat uring-err)"
fi

# The refusals a kernel would give are made here on one that has it all:
# io_uring_setup(2) or io_uring_register(2) fail under a seccomp filter
# (tests/helper/vb-nouring), and VFSBENCH_TEST_URING_NO_OPCODES masks
# opcodes out of the probe. kernel.io_uring_disabled is never changed:
# it is the machine's, and other tests run beside this one.
NOURING="$abs_top_builddir/tests/helper/vb-nouring"
MASK=VFSBENCH_TEST_URING_NO_OPCODES
if test -r /proc/sys/kernel/io_uring_disabled; then
	DISABLED="= $(cat /proc/sys/kernel/io_uring_disabled)"
else
	DISABLED="absent (before Linux 6.6)"
fi
EPERM_WHY="io_uring is refused: io_uring_setup(): Operation not permitted, with kernel.io_uring_disabled $DISABLED: a seccomp filter or a security module refuses it"

# refused MESSAGE CMD...: CMD exits 2 with exactly MESSAGE on stderr,
# nothing on stdout, nothing in the work directory, no r.json, and the
# canaries intact.
refused() {
	canary_setup &&
	rm -f r.json &&
	printf '%s\n' "$1" >expect &&
	shift &&
	test_expect_code 2 "$@" >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test ! -e r.json &&
	canary_check && workdir_empty
}

test_expect_success 'setup: a loadfile of a ring op and a fallback' '
	printf "%s\n" "[run]" "stat a ENOENT" "statfs ." >rf.load
'

# count FLAT OP: the op's count in the first run of a result file.
count() {
	awk -F "\t" -v op="$2" '
		$1 ~ /^runs\[0\]\.ops_detail\[[0-9]+\]\.op$/ { cur = $2 }
		$1 ~ /^runs\[0\]\.ops_detail\[[0-9]+\]\.count$/ && cur == op {
			print $2
		}' "$1"
}

# --- io_uring disabled or absent --------------------------------------

test_expect_success '-e uring, io_uring_setup EPERM: names kernel.io_uring_disabled' '
	refused "error: -e uring: $EPERM_WHY" \
		"$NOURING" io_uring_setup 1 "$VFSBENCH" -q -e uring -c rf.load \
		--loops 1 -D "$TRASH/work" --json r.json 1 &&
	refused "error: -e uring: $EPERM_WHY" \
		"$NOURING" io_uring_setup 1 "$VFSBENCH" -q -e uring \
		--uring-strict --uring-fixed -c default.load --loops 1 \
		-D "$TRASH/work" --json r.json 1
'

test_expect_success 'fdscale --engine uring, io_uring_setup EPERM: the same reason' '
	refused "error: fdscale --engine uring: $EPERM_WHY" \
		"$NOURING" io_uring_setup 1 "$VFSBENCH" fdscale -e uring \
		--max 10 --json r.json &&
	refused "error: fdscale --engine uring: $EPERM_WHY" \
		"$NOURING" io_uring_setup 1 "$VFSBENCH" fdscale -e uring \
		--uring-fixed --max 10 --json r.json
'

test_expect_success 'fdscale --engine uring: no io_uring, setup flags, no probe' '
	refused "error: fdscale --engine uring: this kernel has no io_uring (io_uring_setup(): Function not implemented)" \
		"$NOURING" io_uring_setup 38 "$VFSBENCH" fdscale -e uring \
		--max 10 --json r.json &&
	refused "error: fdscale --engine uring: io_uring_setup() refused IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN (Linux 6.1)" \
		"$NOURING" io_uring_setup 22 "$VFSBENCH" fdscale -e uring \
		--max 10 --json r.json &&
	refused "error: fdscale --engine uring: io_uring_register(IORING_REGISTER_PROBE) failed" \
		"$NOURING" io_uring_register 22 "$VFSBENCH" fdscale -e uring \
		--uring-fixed --max 10 --json r.json
'

test_expect_success 'fdscale --engine posix does not use io_uring: not refused' '
	canary_setup &&
	"$NOURING" io_uring_setup 1 "$VFSBENCH" fdscale --max 3 --loops 1 \
		--json r.json >out 2>err &&
	test -s r.json &&
	json_flat r.json >r.flat && test "$(jget r.flat options.engine)" = posix &&
	canary_check
'

# --- a missing opcode ----------------------------------------------------

test_expect_success '-e uring, IORING_OP_STATX missing: the line, op and opcode, strict or not' '
	msg="rf.load:2:1: op ${SQ}stat$SQ needs IORING_OP_STATX, which this kernel${SQ}s io_uring lacks" &&
	refused "$msg" env "$MASK=IORING_OP_STATX" "$VFSBENCH" -q -e uring \
		-c rf.load --loops 1 -D "$TRASH/work" --json r.json 1 &&
	refused "$msg" env "$MASK=IORING_OP_STATX" "$VFSBENCH" -q -e uring \
		--uring-strict -c rf.load --loops 1 -D "$TRASH/work" \
		--json r.json 1 &&
	refused "default.load (built-in):25:1: op ${SQ}rename$SQ needs IORING_OP_RENAMEAT, which this kernel${SQ}s io_uring lacks" \
		env "$MASK=IORING_OP_UNLINKAT,IORING_OP_RENAMEAT" "$VFSBENCH" \
		-q -e uring -c default.load --loops 1 -D "$TRASH/work" \
		--json r.json 1
'

test_expect_success 'an opcode the loadfile does not use: the fallback runs, --uring-strict refuses it' '
	canary_setup &&
	env "$MASK=IORING_OP_OPENAT" "$VFSBENCH" -q -e uring -c rf.load \
		--loops 3 -D "$TRASH/work" --json ok.json 1 >out 2>err &&
	test ! -s err &&
	json_flat ok.json >ok.flat &&
	test "$(count ok.flat stat)" = 3 &&
	test "$(count ok.flat statfs)" = 3 &&
	canary_check && workdir_empty &&
	refused "error: rf.load: --uring-strict: ops with no io_uring opcode, which would run as system calls: statfs (statfs(2))" \
		env "$MASK=IORING_OP_OPENAT" "$VFSBENCH" -q -e uring \
		--uring-strict -c rf.load --loops 1 -D "$TRASH/work" \
		--json r.json 1
'

test_expect_success '-e posix is not refused for a masked opcode' '
	canary_setup &&
	env "$MASK=IORING_OP_STATX" "$VFSBENCH" -q -e posix -c rf.load \
		--loops 2 -D "$TRASH/work" --json ok.json 1 >out 2>err &&
	json_flat ok.json >ok.flat &&
	test "$(count ok.flat stat)" = 2 &&
	canary_check && workdir_empty
'

test_expect_success 'fdscale --engine uring: a missing IORING_OP_OPENAT or IORING_OP_CLOSE' '
	refused "error: fdscale --engine uring: the timed open needs IORING_OP_OPENAT, which this kernel${SQ}s io_uring lacks" \
		env "$MASK=IORING_OP_OPENAT" "$VFSBENCH" fdscale -e uring \
		--max 10 --json r.json &&
	refused "error: fdscale --engine uring: the timed close needs IORING_OP_CLOSE, which this kernel${SQ}s io_uring lacks" \
		env "$MASK=IORING_OP_STATX,IORING_OP_CLOSE" "$VFSBENCH" fdscale \
		-e uring --uring-fixed --max 10 --json r.json &&
	canary_setup &&
	env "$MASK=IORING_OP_OPENAT,IORING_OP_CLOSE" "$VFSBENCH" fdscale \
		--max 3 --loops 1 --json r.json >out &&
	json_flat r.json >r.flat && test "$(jget r.flat options.engine)" = posix
'

test_expect_success "an unknown name in $MASK: exit 2, the name" '
	refused "error: $MASK: unknown opcode ${SQ}IORING_OP_BOGUS$SQ (expected IORING_OP_ names, such as IORING_OP_STATX)" \
		env "$MASK=IORING_OP_STATX,IORING_OP_BOGUS" "$VFSBENCH" -q \
		-e uring -c rf.load --loops 1 -D "$TRASH/work" --json r.json 1 &&
	refused "error: $MASK: unknown opcode ${SQ}statx$SQ (expected IORING_OP_ names, such as IORING_OP_STATX)" \
		env "$MASK=statx" "$VFSBENCH" fdscale -e uring --json r.json
'

test_done
