#!/bin/sh
# shellcheck disable=SC2034
test_description='the Debian packages: a source package without build trees; with VB_DEB_TEST=1, tools/deb.sh builds both binary packages, lintian-clean, and what they hold'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# shellcheck disable=SC2154
TOP=$abs_top_srcdir
test -f "$TOP/debian/control" || test_skip_all 'no debian/ in the source tree'

# The source package of a tree that has the build directories of the
# README and tools/test.sh: debian/source/options leaves them out.
if command -v dpkg-source >/dev/null 2>&1; then
	test_expect_success 'a source package leaves out b/, build/ and build-*/' '
		mkdir -p tree/vfsbench-0.1.0 &&
		cp -R "$TOP/debian" tree/vfsbench-0.1.0/ &&
		rm -rf tree/vfsbench-0.1.0/debian/build-plain \
			tree/vfsbench-0.1.0/debian/build-mpi &&
		cd tree/vfsbench-0.1.0 &&
		echo source >README.md &&
		mkdir -p b/src build/src build-gcc/src src &&
		echo x >b/src/vfsbench && echo x >build/src/vfsbench &&
		echo x >build-gcc/src/vfsbench && echo kept >src/main.c &&
		touch vfsbench-0.1.0.tar.gz &&
		cd .. &&
		dpkg-source -b vfsbench-0.1.0 >out 2>&1 &&
		tar -tf vfsbench_0.1.0.tar.* | sed "s|^vfsbench-0.1.0/||" |
			sort >list &&
		test_grep "^src/main.c$" list &&
		test_grep "^debian/rules$" list &&
		! grep -E "^(b|build|build-gcc)/|\.tar\.gz$" list
	'
else
	test_skip 'a source package leaves out build trees' 'no dpkg-source'
fi

# control_field PACKAGE FIELD: the field of the binary package's stanza,
# its continuation lines joined.
control_field() {
	awk -v p="$1" -v f="$2" '
		/^Package:/ { in_p = ($2 == p) }
		in_p && index($0, f ":") == 1 { v = substr($0, length(f) + 2); on = 1; next }
		in_p && on && /^[ \t]/ { v = v $0; next }
		{ on = 0 }
		END { gsub(/[ \t]+/, " ", v); print v }' "$TOP/debian/control"
}

test_expect_success 'vfsbench recommends strace (record) and suggests linux-perf (--profile), QEMU, busybox-static and kmod (kernels)' '
	control_field vfsbench Recommends >rec &&
	control_field vfsbench Suggests >sug &&
	echo " strace" >expect &&
	test_cmp expect rec &&
	echo " gnuplot-nox, linux-perf, ministat, vfsbench-mpi, qemu-system-x86, busybox-static, kmod" >expect &&
	test_cmp expect sug &&
	! control_field vfsbench Depends | grep -E "strace|perf"
'

# Every doc/*.md a man page cites is installed (dist_doc_DATA: make
# install and the package's dh_auto_install put it in the doc directory).
test_expect_success 'every doc/*.md that a man page cites is installed' '
	cat "$TOP"/doc/*.1 "$TOP"/doc/*.5 | grep -o "doc/[a-z0-9-]*\.md" |
		sort -u >cited &&
	test -s cited &&
	sed -n "/^dist_doc_DATA *=/,/[^\\]\$/p" "$TOP/Makefile.am" |
		tr " \t\\\\" "\n\n\n" | grep "^doc/.*\.md\$" | sort -u >installed &&
	comm -23 cited installed >missing &&
	test ! -s missing || { cat missing; false; }
'

if [ "${VB_DEB_TEST:-}" != 1 ]; then
	test_skip 'tools/deb.sh builds both packages, lintian-clean' \
		'a package build takes minutes: VB_DEB_TEST=1 runs it'
	test_done
	exit $?
fi
command -v git >/dev/null 2>&1 && git -C "$TOP" rev-parse >/dev/null 2>&1 ||
	test_skip_all 'tools/deb.sh copies the tree through git: not a git tree'

test_expect_success 'tools/deb.sh builds both packages, lintian-clean' '
	sh "$TOP/tools/deb.sh" "$TRASH/out" >deb.out 2>&1 ||
		{ cat deb.out; false; } &&
	test_grep "lintian: no errors, no warnings" deb.out &&
	test -f out/vfsbench_*_*.deb &&
	test -f out/vfsbench-mpi_*_*.deb
'

PLAIN=$(echo "$TRASH"/out/vfsbench_*_*.deb)
MPI=$(echo "$TRASH"/out/vfsbench-mpi_*_*.deb)

test_expect_success 'vfsbench holds the binary, the dbench name, man pages, loadfiles, completion' '
	dpkg-deb -c "$PLAIN" | awk "{ print \$6 }" >files &&
	for f in usr/bin/vfsbench usr/bin/vfsbench-dbench \
		usr/share/man/man1/vfsbench.1.gz \
		usr/share/man/man1/vfsbench-dbench.1.gz \
		usr/share/man/man1/vfsbench-compare.1.gz \
		usr/share/man/man1/vfsbench-fdscale.1.gz \
		usr/share/man/man1/vfsbench-record.1.gz \
		usr/share/man/man5/vfsbench-loadfile.5.gz \
		usr/share/vfsbench/statfs.load usr/share/vfsbench/default.load \
		usr/share/bash-completion/completions/vfsbench \
		usr/share/bash-completion/completions/vfsbench-dbench; do
		test_grep "^\./$f$" files || return 1
	done &&
	for d in profiling performance recording suites; do
		test_grep "^\./usr/share/doc/vfsbench/$d\.md\(\.gz\)\?$" files ||
			return 1
	done &&
	dpkg-deb -f "$PLAIN" Recommends >rec &&
	test_grep "strace" rec &&
	dpkg-deb -f "$PLAIN" Suggests >sug &&
	test_grep "linux-perf" sug &&
	! grep -E "mpi|/b/|build-" files
'

test_expect_success 'vfsbench-mpi holds vfsbench-mpi, built with MPI; vfsbench does not pull MPI in' '
	dpkg-deb -c "$MPI" | awk "{ print \$6 }" >mfiles &&
	test_grep "^\./usr/bin/vfsbench-mpi$" mfiles &&
	test_grep "^\./usr/share/man/man1/vfsbench-mpi.1.gz$" mfiles &&
	dpkg-deb -f "$MPI" Depends >mdeps &&
	test_grep "vfsbench (= " mdeps &&
	test_grep "libopenmpi" mdeps &&
	dpkg-deb -f "$PLAIN" Depends >deps &&
	! grep -i mpi deps &&
	dpkg-deb -x "$PLAIN" root &&
	dpkg-deb -x "$MPI" root &&
	root/usr/bin/vfsbench -e null --loops 5 -q 1 >plain.out &&
	test_grep "^Throughput" plain.out &&
	root/usr/bin/vfsbench-mpi -e null --loops 5 -q 1 >mpi.out &&
	test_grep "^Throughput" mpi.out &&
	test_expect_code 2 env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 \
		root/usr/bin/vfsbench -e null --loops 5 -q 1 2>refused &&
	test_grep "vfsbench-mpi" refused
'

test_done
