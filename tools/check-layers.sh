#!/bin/sh
# The layering check (doc/design.md, "Layers and folders"):
#   sh tools/check-layers.sh [SRCDIR]                 includes (default: src)
#   sh tools/check-layers.sh --objects BUILDDIR/src   calls, from the objects
# Fails, naming file and line (or object and symbol), when
#   - an include does not name its folder ("run.h", not "run/run.h") or
#     names a header that does not exist;
#   - a file includes a header of (or an object calls a function in) a
#     folder its own folder may not use: the table below, the same as
#     doc/design.md's;
#   - a file is in a folder the table does not know;
#   - modules include or call each other in a loop (a module is a .c file
#     with its .h; a loop is a cycle among modules, within one folder too).
# Exit 0 when the tree is clean, 1 with one line per problem, 2 on bad use.
set -u

# FOLDER: the folders it may use besides itself, lower layers first.
rules='
base:
stats: base
sys: base
workdir: base
mpi: base
lang: base
engine: lang base
run: engine lang stats sys mpi workdir base
fdscale: run engine sys stats base
compare: stats base
vm: sys workdir base
report: run fdscale compare lang stats sys mpi workdir base
cli: vm report run fdscale compare engine lang stats sys mpi workdir base
'

# Records on stdin: FROM TO WHERE WHAT, tab-separated; FROM and TO are
# modules ("run/client"), or TO is "!" and WHAT a problem found already,
# or TO is "=" for a file with nothing to check but its folder.
check() {
	awk -F '\t' -v rules="$rules" '
	BEGIN {
		n = split(rules, lines, "\n")
		for (i = 1; i <= n; i++) {
			if (lines[i] == "")
				continue
			f = lines[i]
			sub(/:.*/, "", f)
			known[f] = 1
			allow[f, f] = 1
			rest = lines[i]
			sub(/^[^:]*:/, "", rest)
			m = split(rest, dep, " ")
			for (j = 1; j <= m; j++) {
				allow[f, dep[j]] = 1
				may[f] = may[f] (may[f] == "" ? "" : " ") dep[j]
			}
		}
	}
	function folder(m) {
		return substr(m, 1, index(m, "/") - 1)
	}
	function fail(msg) {
		print msg
		bad = 1
	}
	$2 == "!" {
		fail($3 ": " $4)
		next
	}
	{
		from = folder($1)
		to = folder($2)
		if (!(from in known)) {
			if (!(from in unknown))
				fail($3 ": folder " from "/ is not in the layer table")
			unknown[from] = 1
			next
		}
		if ($2 == "=")
			next
		if (!(to in known)) {
			fail($3 ": " $4 ": no layer folder " to "/")
			next
		}
		if (!((from, to) in allow)) {
			fail($3 ": " $4 ": " from "/ may not use " to "/ (" from "/ may use: " (may[from] == "" ? "nothing" : may[from]) ")")
			next
		}
		if ($1 != $2 && !(($1, $2) in edge)) {
			edge[$1, $2] = 1
			out[$1] = out[$1] " " $2
			nodes[$1] = nodes[$2] = 1
			where[$1, $2] = $3 ": " $4
		}
	}
	function visit(u,    k, m, vs, v, i, cyc) {
		state[u] = 1
		stack[++depth] = u
		m = split(out[u], vs, " ")
		for (k = 1; k <= m; k++) {
			v = vs[k]
			if (state[v] == 1) {
				cyc = v
				for (i = depth; i >= 1 && stack[i] != v; i--)
					cyc = stack[i] " -> " cyc
				cyc = v " -> " cyc
				fail("loop: " cyc " (" where[u, v] ")")
			} else if (state[v] == 0) {
				visit(v)
			}
		}
		depth--
		state[u] = 2
	}
	END {
		for (u in nodes)
			state[u] = 0
		for (u in nodes)
			if (state[u] == 0)
				visit(u)
		exit bad
	}'
}

# The includes of every SRCDIR/FOLDER/*.[ch] as records.
includes() {
	(cd "$1" && for f in */*.c */*.h; do
		test -f "$f" || continue
		awk -v f="$f" -v OFS='\t' '
		function module(p) {
			sub(/\.[ch]$/, "", p)
			return p
		}
		BEGIN {
			print module(f), "=", "'"$1"'/" f, "file"
		}
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			t = $0
			sub(/^[^"]*"/, "", t)
			sub(/".*/, "", t)
			w = "'"$1"'/" f ":" FNR
			if (index(t, "/") == 0)
				print module(f), "!", w, "include \"" t "\" does not name its folder"
			else if ((getline dummy < t) < 0)
				print module(f), "!", w, "include \"" t "\": no such header"
			else
				print module(f), module(t), w, "includes " t
			close(t)
		}' "$f"
	done)
}

# The calls between the objects under BUILDDIR/src: a symbol one object
# uses and another defines. The module of src/run/libvfsbench_a-client.o
# is run/client; main's object is cli/main.
calls() {
	(cd "$1" && find . -path './*/*.o' | sed 's|^\./||' | sort |
	while read -r o; do
		m=$(printf '%s\n' "$o" | sed 's|/[^/-]*-\([^/]*\)\.o$|/\1|; s|\.o$||')
		nm -P --defined-only "$o" | awk -v m="$m" '$2 ~ /^[TDRBC]$/ { print "D", m, $1 }'
		nm -P -u "$o" | awk -v m="$m" -v o="$o" '{ print "U", m, $1, o }'
	done) | awk -v OFS='\t' -v dir="$1" '
	$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2 SUBSEP $3 SUBSEP $4 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, SUBSEP)
			if (u[2] in def)
				print u[1], def[u[2]], dir "/" u[3], "calls " u[2] "()"
		}
	}'
}

case "${1:-}" in
--objects)
	test $# -eq 2 && test -d "$2" || { echo "usage: $0 --objects BUILDDIR/src" >&2; exit 2; }
	calls "$2" | check
	;;
-*)
	echo "usage: $0 [SRCDIR] | --objects BUILDDIR/src" >&2
	exit 2
	;;
*)
	src=${1:-src}
	test -d "$src" || { echo "check-layers: no directory '$src'" >&2; exit 2; }
	includes "$src" | check
	;;
esac
