#!/bin/sh
# shellcheck disable=SC2034
test_description='bash completion: every option of each --help, its keyword values, the variant axes, the loadfiles'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

command -v bash >/dev/null 2>&1 || test_skip_all 'no bash'

# shellcheck disable=SC2154
COMPLETION="$abs_top_srcdir/completion/vfsbench"

# comp WORD...: COMPREPLY, one a line, of the completion function for
# COMP_WORDS=(WORD...) with the last word the one being completed, as
# bash splits a line (at '=' too: --cwd=s is '--cwd' '=' 's'). The
# first word is the program: vfsbench is the built binary.
cat >comp.bash <<'EOF'
. "$COMPLETION"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
[[ ${COMP_WORDS[0]} == vfsbench ]] && COMP_WORDS[0]=$VFSBENCH
_vfsbench
for w in "${COMPREPLY[@]}"; do
	printf '%s\n' "$w"
done
EOF
comp() {
	COMPLETION=$COMPLETION bash "$TRASH/comp.bash" "$@"
}

# full_help [SUBCOMMAND]: every option of the command: vfsbench
# --help-all, or the subcommand's --help.
full_help() {
	if [ $# -eq 0 ]; then
		vfsbench --help-all
	else
		vfsbench "$@" --help
	fi
}

# help_options [SUBCOMMAND]: the options of the option column of the
# command's full help, long and short, one a line, sorted.
help_options() {
	full_help "$@" |
	sed -n 's/^ \{1,8\}\(-[a-zA-Z?], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\1\2/p' |
	tr -d ',' | tr ' ' '\n' | sed '/^$/d' | LC_ALL=C sort -u
}

# help_values [SUBCOMMAND]: "--option value..." for each option of the
# command's --help whose argument is a list of choices (--cwd=a|b): its
# lowercase keywords, negative=N as negative=, sorted.
help_values() {
	full_help "$@" |
	sed -n 's/^ \{1,8\}\(-[a-zA-Z?], \)\{0,1\}\(--[a-z][a-z0-9-]*\)=\([^ ]*|[^ ]*\).*/\2 \3/p' |
	awk '{
		n = split($2, v, "|")
		out = ""
		for (i = 1; i <= n; i++)
			if (v[i] ~ /^[a-z][a-z0-9_-]*(=.*)?$/) {
				sub(/=.*/, "=", v[i])
				out = out " " v[i]
			}
		print $1 out
	}'
}

sorted() {
	LC_ALL=C sort
}

test_expect_success 'the completion is bound to the three names' '
	cat >expect <<-\EOF &&
	complete -F _vfsbench vfsbench
	complete -F _vfsbench vfsbench-mpi
	complete -F _vfsbench vfsbench-dbench
	EOF
	bash -c ". \"$COMPLETION\" && complete -p vfsbench vfsbench-mpi vfsbench-dbench" >actual &&
	test_cmp expect actual
'

test_expect_success 'each command offers exactly the options of its --help' '
	for cmd in "" compare plot fdscale dbench clean record kernels; do
		# shellcheck disable=SC2086
		help_options $cmd >expect.$cmd &&
		test "$(wc -l <expect.$cmd)" -gt 3 &&
		# shellcheck disable=SC2086
		comp vfsbench $cmd - | sorted >actual.$cmd &&
		test_cmp expect.$cmd actual.$cmd || return 1
	done &&
	ln -s "$VFSBENCH" vfsbench-dbench &&
	comp ./vfsbench-dbench - | sorted >actual.personality &&
	test_cmp expect.dbench actual.personality
'

test_expect_success 'each option with a list of choices offers exactly those' '
	for cmd in "" compare plot fdscale dbench clean record kernels; do
		# shellcheck disable=SC2086
		help_values $cmd >values.$cmd || return 1
		while read -r opt want; do
			printf "%s\n" $want | sed "/^$/d" | sorted >expect &&
			# shellcheck disable=SC2086
			comp vfsbench $cmd "$opt" "" | sorted >actual &&
			test_cmp expect actual || return 1
		done <values.$cmd
	done &&
	test "$(wc -l <values.)" -ge 12 &&
	grep "^--placement none compact spread$" values. &&
	grep "^--dcache warm cold negative=$" values. &&
	grep "^--evict l2 llc$" values.fdscale
'

test_expect_success '--variant offers the axes that vfsbench names, each with its values' '
	test_expect_code 2 vfsbench --variant nosuch=1,2 1 2>err &&
	sed -n "s/.*expected one of \(.*\) (for .*/\1/p" err | tr -d "," |
		tr " " "\n" | sed "s/$/=/" | sorted >expect &&
	test "$(wc -l <expect)" -ge 10 &&
	comp vfsbench --variant "" | sorted >actual &&
	test_cmp expect actual &&
	for axis in $(sed "s/=$//" expect); do
		# a flag: its variant values are 0 and 1
		if test "$axis" = uring-fixed; then
			printf "%s\n" 0 1 >expect.v
		else
			comp vfsbench "--$axis" "" | sorted >expect.v
		fi &&
		comp vfsbench --variant "$axis" = "" | sorted >actual.v &&
		test_cmp expect.v actual.v || return 1
	done
'

test_expect_success '-c offers every built-in loadfile' '
	mkdir empty &&
	vfsbench --list-loadfiles | awk "/^[^ ]/ { print \$1 }" | sorted >expect &&
	test "$(wc -l <expect)" -ge 10 &&
	(cd empty && comp vfsbench -c "") | sorted >actual &&
	test_cmp expect actual
'

test_expect_success 'suite: its names, --lines and --list, and the options of a run' '
	vfsbench suite --list | awk "/^[^ ]/ { print \$1 }" | sorted >expect &&
	test "$(wc -l <expect)" -eq 3 &&
	(cd empty && comp vfsbench suite "") | sorted >actual &&
	test_cmp expect actual &&
	test "$(comp vfsbench suite fxmark --line)" = "--lines" &&
	comp vfsbench suite --lis | grep -qx -- --list &&
	test "$(comp vfsbench suite fxmark --lines "" | tr "\n" " ")" = "fxmark lkp " &&
	test "$(comp vfsbench suite fxmark --cwd "" | tr "\n" " ")" = "private shared " &&
	help_options >expect &&
	printf "%s\n" --lines --list >>expect &&
	sorted <expect >expect.suite &&
	comp vfsbench suite fxmark - | sorted >actual &&
	test_cmp expect.suite actual &&
	test "$(comp vfsbench suite fxmark 1 "")" = ""
'

test_expect_success 'exact replies, as bash splits the line' '
	mkdir -p cases/sub && touch cases/a.json cases/b.json &&
	cd cases &&
	test "$(comp vfsbench --cw)" = "--cwd" &&
	test "$(comp vfsbench --cwd = s)" = "shared" &&
	test "$(comp vfsbench --resolve d)" = "dirfd" &&
	test "$(comp vfsbench --dcache n)" = "negative=" &&
	test "$(comp vfsbench -c stat | tr "\n" " ")" = \
		"statfs.load statvfs.load statvfs_legacy.load " &&
	test "$(comp vfsbench --variant res)" = "resolve=" &&
	test "$(comp vfsbench --variant resolve = cwd,d)" = "cwd,dirfd" &&
	test "$(comp vfsbench --variant = placement = "")" = "$(printf "none\ncompact\nspread")" &&
	test "$(comp vfsbench "" | tr "\n" " ")" = \
		"compare plot fdscale dbench clean suite record kernels topology " &&
	test "$(comp vfsbench -c compare -q co)" = "compare" &&
	test "$(comp vfsbench -q compare --c | tr "\n" " ")" = \
		"--correction --confidence " &&
	test "$(comp vfsbench compare "" | sorted | tr "\n" " ")" = \
		"a.json b.json sub " &&
	test "$(comp vfsbench -D "")" = "sub" &&
	test "$(comp vfsbench clean -D "")" = "sub" &&
	test "$(comp vfsbench 1 2 "")" = "" &&
	test "$(comp vfsbench 4 --js)" = "--json" &&
	test "$(comp vfsbench fdscale --evict "")" = "$(printf "l2\nllc")" &&
	test "$(comp vfsbench dbench -B "")" = "fileio" &&
	ln -sf "$VFSBENCH" "$TRASH/vfsbench-dbench" &&
	test "$(comp "$TRASH/vfsbench-dbench" --adopt)" = "--adopt-clients"
'

test_done
