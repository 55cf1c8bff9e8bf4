#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='no loadfile reaches outside the work directory: every changing op x every way out'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench-loadfile(5), "Staying inside": paths and symlink targets are
# relative, a target's ".." only where it stays inside from its link and
# no rename or link could move the link higher, so every name a client
# resolves stays below its directory; --links-out lifts the rule for a
# loadfile that only reads.
# Here every op that creates, changes or removes something is tried
# through every way out of the client directory (an absolute link, a ".."
# link, a link renamed to a shallower directory, one whose ".." stays
# inside until a rename moves it higher, a chain of links, a hard
# link of a link, a link made in [setup] and used in [run], the dbench
# dialect), and must be refused before anything exists on disk. The
# "outside" is always a scratch directory of this test, snapshotted before
# and compared after, never a real system file; the canaries beside and
# inside -D must survive too.

SQ="'"
OUT="$TRASH/outside"

# snapshot: every name below $OUT with its type, size, mtime and link
# count, and every file's contents.
snapshot() {
	(
		cd "$OUT" &&
		find . | LC_ALL=C sort | while read -r f; do
			stat -c '%n %F %s %Y %h' "$f" || exit 1
			if test -f "$f" && ! test -h "$f"; then
				cat "$f" || exit 1
			fi
		done
	)
}

outside_setup() {
	rm -rf "$OUT" &&
	mkdir -p "$OUT/sub" &&
	echo secret >"$OUT/secret" &&
	echo canary >"$OUT/canary" &&
	echo f >"$OUT/sub/f" &&
	touch -d '2001-01-01 00:00:00' "$OUT/secret" "$OUT/canary" \
		"$OUT/sub/f" "$OUT/sub" "$OUT" &&
	snapshot >"$TRASH/outside.before"
}

outside_check() {
	snapshot >"$TRASH/outside.after" &&
	test_cmp "$TRASH/outside.before" "$TRASH/outside.after"
}

# The changing ops, each as loadfile lines on a path P that may lead out
# (and Q, a name inside): op_lines NAME P.
op_lines() {
	case "$1" in
	create) echo "create $2/new" ;;
	open-creat)
		echo "open $2/new wronly,creat @1"
		echo "close @1"
		;;
	open-trunc)
		echo "open $2/secret rdonly,trunc @1"
		echo "close @1"
		;;
	pwrite)
		echo "open $2/secret rdwr @1"
		echo "pwrite @1 0 3"
		echo "close @1"
		;;
	ftruncate)
		echo "open $2/secret wronly @1"
		echo "ftruncate @1 0"
		echo "close @1"
		;;
	fsync)
		echo "open $2/secret wronly @1"
		echo "fsync @1"
		echo "fdatasync @1"
		echo "close @1"
		;;
	unlink) echo "unlink $2/secret" ;;
	mkdir) echo "mkdir $2/newdir" ;;
	rmdir) echo "rmdir $2/sub" ;;
	rename-in) echo "rename $2/secret mine" ;;
	rename-out)
		echo "create mine"
		echo "rename mine $2/stolen"
		;;
	link-in) echo "link $2/secret mine" ;;
	link-out)
		echo "create mine"
		echo "link mine $2/linked"
		;;
	symlink) echo "symlink x $2/planted" ;;
	utimens) echo "utimens $2/secret" ;;
	esac
}

OPS='create open-creat open-trunc pwrite ftruncate fsync unlink mkdir rmdir
rename-in rename-out link-in link-out symlink utimens'

# The ways out: way_lines WAY prints the [setup] lines that make "evil"
# lead to $OUT (the client directory is WD/run0/clients/client0, so
# ../../../../.. is $TRASH), and the message expected.
way_setup() {
	case "$1" in
	absolute) echo "symlink \"$OUT\" evil" ;;
	dotdot) echo "symlink ../../../../../outside evil" ;;
	shallower)
		echo "mkdir a"
		echo "symlink ../../../../../../outside a/evil"
		echo "rename a/evil evil"
		;;
	renamed)
		echo "mkdir a"
		echo "mkdir a/b"
		echo "symlink ../x/y a/b/evil"
		echo "rename a/b/evil evil"
		;;
	chain)
		echo "symlink evil2 evil"
		echo "symlink \"$OUT\" evil2"
		;;
	hardlink)
		echo "symlink \"$OUT\" a"
		echo "link a evil"
		;;
	esac
}

WAYS='absolute dotdot shallower renamed chain hardlink'

# way_error WAY: the exact error vfsbench gives for the loadfile.
way_error() {
	why="a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)"
	case "$1" in
	absolute) echo "t.load:2:9: absolute symlink target ${SQ}$OUT${SQ}: $why" ;;
	dotdot) echo "t.load:2:9: ${SQ}..${SQ} in symlink target ${SQ}../../../../../outside${SQ} leads out of the client directory from link ${SQ}evil${SQ}: $why" ;;
	shallower) echo "t.load:3:12: ${SQ}..${SQ} in symlink target ${SQ}../../../../../../outside${SQ} leads out of the client directory from link ${SQ}a/evil${SQ}: $why" ;;
	renamed) echo "t.load:5:17: ${SQ}evil${SQ} puts a name 1 level below the client directory, where a link whose target climbs 1 (line 4, ${SQ}../x/y${SQ}) would lead out: with ${SQ}..${SQ} in a symlink target, every rename and link must put its name at least 2 levels down" ;;
	chain) echo "t.load:3:9: absolute symlink target ${SQ}$OUT${SQ}: $why" ;;
	hardlink) echo "t.load:2:9: absolute symlink target ${SQ}$OUT${SQ}: $why" ;;
	esac
}

# refused ARGS...: vfsbench -c t.load ARGS exits 2 with exactly the message
# in expect, prints nothing on stdout, creates nothing; outside intact.
refused() {
	test_expect_code 2 vfsbench -q --loops 1 -c t.load -D "$TRASH/work" \
		"$@" 1 >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	outside_check &&
	canary_check &&
	workdir_empty
}

test_expect_success 'setup: the outside' '
	outside_setup &&
	test -s "$TRASH/outside.before"
'

# The link is made in [setup] and used in [run], the most likely way a
# loadfile would try it; the next test puts both in [run].
for way in $WAYS; do
	test_expect_success "a way out ($way) in [setup], each changing op in [run]: refused" '
		for op in $OPS; do
			canary_setup &&
			{
				echo "[setup]" &&
				way_setup '"$way"' &&
				echo "[run]" &&
				op_lines "$op" evil
			} >t.load &&
			way_error '"$way"' >expect &&
			refused || return 1
		done
	'
done

test_expect_success 'a way out and the ops in [run] alike: refused' '
	for way in $WAYS; do
		for op in $OPS; do
			canary_setup &&
			{
				echo "# the same, all in [run]" &&
				way_setup "$way" &&
				op_lines "$op" evil
			} >t.load &&
			way_error "$way" >expect &&
			refused || return 1
		done
	done
'

# --links-out accepts every way out above, and then refuses the ops.
test_expect_success '--links-out: every way out is accepted, every changing op refused' '
	canary_setup &&
	for op in $OPS; do
		{
			echo "[setup]" &&
			echo "symlink \"$OUT\" evil" &&
			echo "[run]" &&
			op_lines "$op" evil
		} >t.load &&
		test_expect_code 2 vfsbench -q --loops 1 --links-out -c t.load \
			-D "$TRASH/work" 1 >out 2>err &&
		test_grep "^t\.load:[34]:[0-9]*: ${SQ}[a-z]*${SQ} .*: with --links-out" err &&
		test "$(wc -l <err)" -eq 1 &&
		test ! -s out &&
		outside_check &&
		canary_check &&
		workdir_empty || return 1
	done
'

test_expect_success '--links-out: reading through every way out works, nothing changes' '
	canary_setup &&
	for way in $WAYS; do
		{
			echo "[setup]" &&
			way_setup "$way" &&
			echo "[run]" &&
			echo "stat evil/secret" &&
			echo "readdir evil/sub" &&
			echo "open evil/secret rdonly @1" &&
			echo "pread @1 0 7" &&
			echo "close @1" &&
			echo "readlink evil"
		} >t.load &&
		{
			# a renamed or hard-linked link is not possible here
			case $way in
			shallower | renamed | hardlink)
				test_expect_code 2 vfsbench -q --loops 1 --links-out \
					-c t.load -D "$TRASH/work" 1 >out 2>err &&
				test_grep ": with --links-out" err
				;;
			*)
				vfsbench -q --loops 3 --links-out -c t.load \
					-D "$TRASH/work" 2 >out 2>err &&
				test ! -s err &&
				test "$(op_count out pread)" = 6 &&
				! grep "^  " out
				;;
			esac
		} &&
		outside_check &&
		canary_check &&
		workdir_empty || return 1
	done
'

# Links that lead inside: the same shapes with relative targets without
# "..", and the ops through them land where the link leads, inside. The
# outside holds the same names, which must stay as they are.
test_expect_success 'links inside, every changing op through them: inside only' '
	for op in $OPS; do
		canary_setup &&
		{
			echo "[setup]" &&
			echo "mkdir t" &&
			echo "mkdir t/sub" &&
			echo "create t/secret" &&
			echo "mkdir a" &&
			echo "mkdir a/t" &&
			echo "symlink t a/shallow" &&
			echo "rename a/shallow shallow" &&
			echo "symlink shallow chain" &&
			echo "link chain hard" &&
			echo "[run]" &&
			op_lines "$op" hard
		} >t.load &&
		vfsbench -q --loops 1 --skip-cleanup -c t.load -D "$TRASH/work" 1 \
			>out 2>err &&
		! grep "^  " out &&
		wd=$(echo "$TRASH"/work/vfsbench.*) &&
		c="$wd/run0/clients/client0" &&
		case $op in
		create | open-creat) test -f "$c/t/new" ;;
		mkdir) test -d "$c/t/newdir" ;;
		rmdir) ! test -e "$c/t/sub" ;;
		unlink | rename-in) ! test -e "$c/t/secret" ;;
		rename-out) test -f "$c/t/stolen" ;;
		link-out) test -f "$c/t/linked" ;;
		link-in) test -f "$c/mine" ;;
		symlink) test -h "$c/t/planted" ;;
		*) test -f "$c/t/secret" ;;
		esac &&
		test "$(readlink "$c/hard")" = shallow &&
		rm -rf "$wd" &&
		outside_check &&
		canary_check &&
		workdir_empty || return 1
	done
'

# The dbench dialect has no symlink; a path is relative once mapped, and
# ".." in it is refused.
test_expect_success 'dbench dialect: every changing op with .. in its path: refused' '
	for line in \
		"NTCreateX \"\\clients\\client1\\..\\..\\x\" 0x0 0x2 1 NT_STATUS_OK" \
		"Unlink \"\\..\\secret\" 0x10 NT_STATUS_OK" \
		"Rmdir \"..\" NT_STATUS_OK" \
		"Mkdir \"a\\..\\..\\b\" NT_STATUS_OK" \
		"Deltree \"\\clients\\..\" NT_STATUS_OK" \
		"Rename \"\\a\" \"\\..\\b\" NT_STATUS_OK" \
		"Rename \"\\..\\a\" \"\\b\" NT_STATUS_OK"; do
		canary_setup &&
		printf "%s\n" "$line" >t.load &&
		test_expect_code 2 vfsbench -q --loops 1 -c t.load \
			-D "$TRASH/work" 1 >out 2>err &&
		test_grep "^t\.load:1:[0-9]*: ${SQ}\.\.${SQ} in path .*: paths must stay inside the client directory$" err &&
		test ! -s out &&
		outside_check &&
		canary_check &&
		workdir_empty || return 1
	done
'

test_expect_success 'dbench dialect: absolute paths are mapped inside the client directory' '
	canary_setup &&
	p= &&
	for c in $(echo "$OUT" | tr / " "); do
		p="$p\\$c" &&
		printf "Mkdir \"%s\" NT_STATUS_OK\n" "$p" || return 1
	done >t.load &&
	cat >>t.load <<-EOF &&
	NTCreateX "$OUT/secret" 0x0 0x5 1 NT_STATUS_OK
	WriteX 1 0 100 100 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	Unlink "$OUT/canary" 0x10 NT_STATUS_OBJECT_NAME_NOT_FOUND
	Mkdir "\\\\$OUT\\\\sub" NT_STATUS_OK
	EOF
	vfsbench -q --loops 1 --skip-cleanup -c t.load -D "$TRASH/work" 1 \
		>out 2>err &&
	wd=$(echo "$TRASH"/work/vfsbench.*) &&
	test "$(wc -c <"$wd/run0/clients/client0${OUT}/secret")" -eq 100 &&
	test -d "$wd/run0/clients/client0${OUT}/sub" &&
	rm -rf "$wd" &&
	outside_check &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the work directory is mode 0700' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup -c statfs -D "$TRASH/work" 1 \
		>out 2>err &&
	wd=$(echo "$TRASH"/work/vfsbench.*) &&
	test "$(stat -c %a "$wd")" = 700 &&
	(umask 0 && vfsbench -q --loops 1 --skip-cleanup -c statfs \
		-D "$TRASH/work" 1 >out 2>err) &&
	for d in "$TRASH"/work/vfsbench.*; do
		test "$(stat -c %a "$d")" = 700 || return 1
	done &&
	rm -rf "$TRASH"/work/vfsbench.* &&
	canary_check &&
	workdir_empty
'

test_done
