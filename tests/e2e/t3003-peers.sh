#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='bench/peers: the loadfiles that stand for will-it-scale parse, count and issue its calls'
. "$srcdir/tests/e2e/lib.sh"

PEERS="$abs_top_srcdir/bench/peers"

# The null engine: every run op counted, 2 clients x 3 passes each, in a
# shared directory as bench/peers.sh runs them.
for t in open1 open2 unlink1 unlink2 stat1; do
	test_expect_success "wis-$t.load: parses, and its [run] ops are counted" '
		canary_setup &&
		vfsbench -q -e null -D work --cwd shared --loops 3 \
			-c "$PEERS/wis-'$t'.load" 2 >out &&
		sed -n "/^\[run\]/,\$p" "$PEERS/wis-'$t'.load" |
			awk "NR > 1 && !/^#/ { print \$1 }" | sort | uniq -c |
			awk "{ print \$2, 6 * \$1 }" >expect &&
		for op in $(cut -d" " -f1 expect); do
			echo "$op $(op_count out "$op")"
		done >actual &&
		test_cmp expect actual &&
		canary_check
	'
done

# bench/peers.sh -C: one pass of each, traced, against the calls its
# loadfile says will-it-scale issues (no will-it-scale checkout here);
# LeakSanitizer cannot run under ptrace (see t5001)
strace_test 'peers.sh -C: each wis loadfile issues its peer-pass calls' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 VFSBENCH="$abs_top_builddir/src/vfsbench" TMPDIR="$TRASH" \
		sh "$abs_top_srcdir/bench/peers.sh" -C -D "$TRASH/work" wis >out 2>&1 &&
	test_grep "^wis: skipped: no will-it-scale checkout" out &&
	test "$(grep -c "vs the loadfile.s peer-pass lines: identical" out)" = 5 &&
	test_grep "stat1, vfsbench vs the loadfile.s peer-pass lines: identical, 1 line(s): newfstatat(AT_FDCWD, \"tmp/willitscale.XXXXXX\", {...}, 0);" out &&
	! grep DIFFERENT out &&
	canary_check
'

# ... and the check can fail: a loadfile whose open differs by one flag
strace_test 'peers.sh -C: a loadfile that issues other flags is caught (exit 1)' '
	canary_setup &&
	mkdir loads &&
	sed "/^\[run\]/,\$s/ rdwr @1/ rdonly @1/" "$PEERS/wis-open1.load" >loads/wis-open1.load &&
	! cmp -s "$PEERS/wis-open1.load" loads/wis-open1.load &&
	test_expect_code 1 env ASAN_OPTIONS=detect_leaks=0 PEER_LOADS="$TRASH/loads" \
		VFSBENCH="$abs_top_builddir/src/vfsbench" TMPDIR="$TRASH" \
		sh "$abs_top_srcdir/bench/peers.sh" -C -D "$TRASH/work" open1 >out 2>&1 &&
	test_grep "open1, vfsbench vs the loadfile.s peer-pass lines: DIFFERENT" out &&
	test_grep "^< openat(AT_FDCWD, \"tmp/willitscale.XXXXXX\", O_RDONLY)" out &&
	canary_check
'

test_done
