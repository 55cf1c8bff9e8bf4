#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped recordings (doc/recording.md, "Shipped recordings"): each
# made by vfsbench record of a program on a tree generated here, the
# same on every run: fixed names, sizes, modes and times.
#
#   sh tools/record-loadfiles.sh VFSBENCH OUTDIR [NAME...]
#
# writes OUTDIR/NAME.load for each NAME (default: all) of
#   git-status  git status in a repository of 2000 files in 40 directories
#   find        find . over a tree of 3 levels, 155 entries
#   ls-lR       ls -lR over the same tree
#   make-stat   make with nothing to do in a project of 40 sources
# Each file is the recorder's output after one line that names it, which
# --list-loadfiles shows. tests/e2e/t1005-recordings.sh regenerates them
# and compares with loadfiles/ (the header's machine-dependent counts
# aside). Needs git, make, GNU find and ls, strace.
set -eu

[ $# -ge 2 ] || {
	echo "usage: $0 VFSBENCH OUTDIR [NAME...]" >&2
	exit 2
}
vfsbench=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$2" && pwd)
shift 2
names=${*:-git-status find ls-lR make-stat}

umask 022
export LC_ALL=C TZ=UTC
work=$(mktemp -d "${TMPDIR:-/tmp}/vb-record-loadfiles.XXXXXX")
trap 'rm -rf "$work"' EXIT
# what the programs read of the user's settings: nothing
mkdir "$work/home"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home" GIT_CONFIG_NOSYSTEM=1
old=200001010000 # touch -t: every file's time, older than any index

# tree DIR: three levels of directories, files of 0 to 4 KiB, and links
tree() {
	mkdir "$1"
	for a in 0 1 2 3 4; do
		for b in 0 1 2 3 4; do
			mkdir -p "$1/d$a/e$b"
			for c in 0 1 2 3 4; do
				head -c $(((a * 25 + b * 5 + c) * 33)) /dev/zero \
					>"$1/d$a/e$b/f$c"
			done
		done
		ln -s e0/f0 "$1/d$a/link"
	done
	find "$1" -exec touch -h -t $old {} +
}

# repo DIR: 2000 files in 40 directories, committed
repo() {
	mkdir "$1"
	for d in $(seq -w 0 39); do
		mkdir "$1/src$d"
		for f in $(seq -w 0 49); do
			echo "file $d $f" >"$1/src$d/file$f.c"
		done
	done
	find "$1" -exec touch -t $old {} +
	(
		cd "$1" &&
		git init -q -b main . &&
		git add . &&
		GIT_AUTHOR_DATE=@946684800 GIT_COMMITTER_DATE=@946684800 \
		git -c user.name=vfsbench -c user.email=vfsbench@localhost \
			commit -q -m tree
	)
}

# project DIR: make's tree, with every object newer than its source
project() {
	mkdir -p "$1/src" "$1/inc" "$1/obj"
	echo "int common;" >"$1/inc/common.h"
	objs=
	for m in $(seq -w 0 39); do
		echo "#include \"common.h\"" >"$1/src/m$m.c"
		objs="$objs obj/m$m.o"
	done
	cat >"$1/Makefile" <<-EOM
	OBJS =$objs
	all: prog
	prog: \$(OBJS)
	obj/%.o: src/%.c inc/common.h
	EOM
	touch -t $old "$1/Makefile" "$1/inc/common.h" "$1"/src/*.c
	for o in $objs; do
		touch -t 200001010100 "$1/$o"
	done
	touch -t 200001010200 "$1/prog"
}

# record NAME TITLE CMD...: $out/NAME.load from CMD run in $work/NAME
record() {
	name=$1 title=$2
	shift 2
	rm -f "$work/$name.load"
	(cd "$work/$name" && "$vfsbench" record -o "$work/$name.load" \
		-- "$@" >/dev/null 2>"$work/err") || {
		cat "$work/err" >&2
		exit 1
	}
	{
		printf '# %s.load: %s.\n' "$name" "$title"
		cat "$work/$name.load"
	} >"$out/$name.load"
}

for n in $names; do
	case $n in
	git-status)
		repo "$work/$n"
		# no optional lock: a replay in a shared directory may not
		# race for index.lock; no threads: one stream in a fixed order
		record "$n" "git status in a repository of 2000 files, recorded by tools/record-loadfiles.sh" \
			git --no-optional-locks -c core.preloadIndex=false status
		;;
	find)
		tree "$work/$n"
		record "$n" "find over a tree of 155 entries, recorded by tools/record-loadfiles.sh" \
			find .
		;;
	ls-lR)
		tree "$work/$n"
		record "$n" "ls -lR over a tree of 155 entries, recorded by tools/record-loadfiles.sh" \
			ls -lR
		;;
	make-stat)
		project "$work/$n"
		record "$n" "make with nothing to do in a project of 40 sources, a stat storm, recorded by tools/record-loadfiles.sh" \
			make
		;;
	*)
		echo "$0: unknown recording '$n'" >&2
		exit 2
		;;
	esac
done
