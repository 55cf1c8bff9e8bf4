#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='a result file that is a FIFO with no reader: waited for after the tree is gone, and a stop signal there gives its status'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

test_expect_success 'setup' '
	printf "[run]\nstat .\n" >s.load &&
	mkfifo j.fifo
'

test_expect_success 'a FIFO with a reader: the JSON goes through it' '
	canary_setup &&
	{ cat j.fifo >got & } &&
	reader=$! &&
	# the reader is there first: blocked in its open of the FIFO
	pid=$reader &&
	blocked 1 wait_for_partner &&
	vfsbench -q -e null -c s.load --loops 3 -D "$TRASH/work" 1 \
		--json j.fifo >out 2>err &&
	wait "$reader" &&
	test "$(jq -r ".runs[0].clients" got)" = 1 &&
	test_cmp /dev/null err &&
	canary_check && workdir_empty
'

test_expect_success 'no reader yet: named, waited for with the tree gone; a late reader gets the JSON' '
	canary_setup &&
	start_vfsbench -q -e null -c s.load --loops 3 -D "$TRASH/work" 1 \
		--json j.fifo &&
	blocked 1 wait_for_partner &&
	workdir_empty &&
	echo "warning: ${SQ}j.fifo${SQ} is a FIFO that no one reads: waiting for a reader (a stop signal gives up)" >expect &&
	test_cmp expect err &&
	cat j.fifo >got &&
	ends 0 &&
	test "$(jq -r ".runs[0].clients" got)" = 1 &&
	canary_check && workdir_empty
'

for sig in INT TERM HUP; do
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	test_expect_success "SIG$sig while the open of the FIFO waits: exit $want, nothing left" '
		canary_setup &&
		ls -A | grep -v "^list\\." >list.0 &&
		start_vfsbench -q -e null -c s.load --loops 3 -D "$TRASH/work" 1 \
			--json j.fifo &&
		blocked 1 wait_for_partner &&
		workdir_empty &&
		kill -'"$sig"' "$pid" &&
		ends '"$want"' &&
		cat >expect <<-EOF &&
		warning: ${SQ}j.fifo${SQ} is a FIFO that no one reads: waiting for a reader (a stop signal gives up)
		warning: ${SQ}j.fifo${SQ}: not written: stopped by a signal while waiting for a reader
		EOF
		test_cmp expect err &&
		! grep "Interrupted system call" err &&
		ls -A | grep -v "^list\\." >list.1 &&
		test_cmp list.0 list.1 &&
		test -p j.fifo &&
		canary_check && workdir_empty
	'
done

test_done
