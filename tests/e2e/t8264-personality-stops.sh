#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='the dbench personality obeys SIGINT, SIGTERM and SIGHUP as a run does (t8012 has SIGHUP; each subcommand has its own: t8012, t8262)'
. "$srcdir/tests/e2e/lib.sh"

test_expect_success 'setup: a client.txt that sleeps' '
	printf "%s\n" "Sleep 60000000 NT_STATUS_OK" >sleep.txt
'

# Each client is blocked in dbench's Sleep (the kernel's hrtimer
# nanosleep) when the signal is sent: no timing.
for sig in INT TERM HUP; do
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	test_expect_success "vfsbench dbench: SIG$sig while its clients sleep, exit $want, DIR/clients removed" '
		canary_setup &&
		start_vfsbench dbench -c sleep.txt -D "$TRASH/work" -t 60 2 &&
		blocked 2 hrtimer_nanosleep &&
		kill -'"$sig"' "$pid" &&
		ends '"$want"' &&
		test ! -e "$TRASH/work/clients" &&
		! grep "files left" err &&
		canary_check && workdir_empty
	'
done

test_done
