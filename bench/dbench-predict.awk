# SPDX-License-Identifier: GPL-2.0-or-later
#
# Predict the system calls one pass of a dbench loadfile issues, per
# syscall name, from the documented mapping (vfsbench-loadfile(5), "dbench
# loadfiles"; `vfsbench --list-ops` in short; for dbench itself
# ../shared/reference/dbench.md section 1.4), by simulating the client's
# namespace: which paths exist after each create, unlink, rename, mkdir and
# deltree, so that each resolve stat is known to hit or miss and each
# directory scan to find its name or read to the end.
#
# usage: awk -f bench/dbench-predict.awk [-v model=vfsbench|dbench]
#            [-v no_resolve=1] [-v sync_dirs=1] [-v fsync=1] LOADFILE
#
# no_resolve, sync_dirs and fsync model the tools' --no-resolve, -S and -F
# (-s changes no count). --fsinfo statvfs_legacy is not modelled.
#
# Prints one line per syscall name, sorted: NAME CALLS FAILED (the names
# strace gives them on x86-64 with glibc 2.36). Plain POSIX awk, no gawk
# extensions (tested with Debian's mawk 1.3.4).
#
# model=vfsbench (default): vfsbench's posix engine, 1 client, starting in
#   its own empty client directory ("."), paths as vfsbench-loadfile(5)
#   maps them: backslashes are slashes, leading slashes go, a first
#   component "clients" is dropped and with it a second one "client"
#   followed by digits (any case); what is left empty is ".". Deltree
#   removes directories too.
# model=dbench: dbench 4.0's fileio backend, first pass of client 0 in an
#   empty -D directory: paths are "clients/client1/rest" under -D (dbench
#   writes client0 for client 0; the names do not matter here), nothing
#   exists yet; Deltree unlinks files by path and never removes a
#   directory. dbench's per-line kill() and loadfile read() are not
#   included (they are its harness, not the ops).
#
# Directory reads (glibc readdir, and vfsbench's own, both 32 KiB
# getdents64 buffers): a read to the end is one getdents64 per 32 KiB of
# entries plus one returning 0 (so 2 for every directory in client.txt); a
# resolve scan that finds the name (case-insensitively) stops after the
# getdents64 that returned it (1 for a small directory). Entry sizes are
# the kernel's: 8-byte aligned 19 + name + NUL bytes, "." and ".." included.
# A directory whose entries exceed one buffer is reported on stderr: where
# the name falls is not modelled then.

function die(msg) {
	printf "dbench-predict.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	err = 1
	exit 2
}

function warn(msg) {
	if (!(msg in warned))
		printf "dbench-predict.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	warned[msg] = 1
}

function sc(name, ok) {
	calls[name]++
	failed[name] += ok ? 0 : 1
}

function num(s,   v, i, c, d) {
	if (s ~ /^0[xX][0-9a-fA-F]+$/) {
		v = 0
		for (i = 3; i <= length(s); i++) {
			c = tolower(substr(s, i, 1))
			d = index("0123456789abcdef", c) - 1
			v = v * 16 + d
		}
		return v
	}
	if (s ~ /^[0-9]+$/)
		return s + 0
	die("bad number '" s "'")
}

# Tokens split on blanks; double quotes group (no escapes).
function tokenize(s,   n, i) {
	n = 0
	if (index(s, "\"") == 0)
		return split(s, tok)
	while (1) {
		sub(/^[ \t]+/, "", s)
		if (s == "")
			break
		if (substr(s, 1, 1) == "\"") {
			i = index(substr(s, 2), "\"")
			if (i == 0)
				die("unterminated quote")
			tok[++n] = substr(s, 2, i - 1)
			s = substr(s, i + 2)
		} else {
			match(s, /^[^ \t]+/)
			tok[++n] = substr(s, 1, RLENGTH)
			s = substr(s, RLENGTH + 1)
		}
	}
	return n
}

# A loadfile path as the tool passes it to the kernel, relative to the
# model's root (the client directory, or dbench's -D directory).
function mappath(raw,   s, first, rest, second, i) {
	gsub(/\\/, "/", raw)
	sub(/^\/+/, "", raw)
	if (model == "dbench")
		return raw == "" ? "." : raw
	s = raw
	i = index(s, "/")
	first = i ? substr(s, 1, i - 1) : s
	if (tolower(first) != "clients")
		return s == "" ? "." : s
	rest = i ? substr(s, i + 1) : ""
	sub(/^\/+/, "", rest)
	if (rest == "")
		return "."
	i = index(rest, "/")
	second = i ? substr(rest, 1, i - 1) : rest
	if (tolower(second) ~ /^client[0-9]+$/) {
		rest = i ? substr(rest, i + 1) : ""
		sub(/^\/+/, "", rest)
	}
	return rest == "" ? "." : rest
}

# "a//b/./c" -> "a/b/c"; "" or "." -> "."
function norm(p,   n, a, i, out) {
	n = split(p, a, "/")
	out = ""
	for (i = 1; i <= n; i++) {
		if (a[i] == "" || a[i] == ".")
			continue
		out = out == "" ? a[i] : out "/" a[i]
	}
	return out == "" ? "." : out
}

# directory part of a raw path, as strrchr('/') splits it
function rawdir(p,   i) {
	i = lastslash(p)
	return i ? substr(p, 1, i - 1) : "."
}

function rawleaf(p,   i) {
	i = lastslash(p)
	return i ? substr(p, i + 1) : p
}

function lastslash(p,   i, j) {
	j = 0
	while ((i = index(substr(p, j + 1), "/")) > 0)
		j += i
	return j
}

function npar(p,   i) {
	i = lastslash(p)
	return i ? substr(p, 1, i - 1) : "."
}

function reclen(name) {
	return int((19 + length(name) + 1 + 7) / 8) * 8
}

function isdir(p) { return (p in T) && T[p] == "d" }

function add(p, type,   d, nm) {
	d = npar(p); nm = rawleaf(p)
	T[p] = type
	nent[d]++
	nbytes[d] += reclen(nm)
	lc[d, tolower(nm)]++
	if (type == "d") {
		nent[p] = 0
		nbytes[p] = 48
	}
}

function del(p,   d, nm) {
	d = npar(p); nm = rawleaf(p)
	delete T[p]
	nent[d]--
	nbytes[d] -= reclen(nm)
	lc[d, tolower(nm)]--
}

# getdents64 calls that read directory @d to the end
function fullread(d,   n) {
	n = int((nbytes[d] + 32767) / 32768)
	if (n > 1)
		warn("directory '" d "' holds more than one 32 KiB getdents64 buffer")
	return n + 1
}

# glibc opendir + readdir (until @leaf matches, or to the end) + closedir
function readdir_(rawd, leaf,   d, i, n) {
	d = norm(rawd)
	if (!isdir(d)) {
		sc("openat", 0)
		return
	}
	sc("openat", 1)
	sc("newfstatat", 1)
	if (leaf != "" && lc[d, tolower(leaf)] > 0) {
		if (nbytes[d] > 32768)
			warn("directory '" d "' holds more than one 32 KiB getdents64 buffer")
		n = 1
	} else {
		n = fullread(d)
	}
	for (i = 1; i < n; i++)
		sc("getdents64", 1)
	sc("getdents64", 1)
	sc("close", 1)
}

# R: stat, and on a miss the parent scan
function resolve(raw,   p) {
	p = norm(raw)
	if (p in T) {
		sc("newfstatat", 1)
		return
	}
	sc("newfstatat", 0)
	if (!no_resolve)
		readdir_(rawdir(raw), rawleaf(raw))
}

function syncparent(raw) {
	if (!sync_dirs)
		return
	if (isdir(norm(rawdir(raw)))) {
		sc("openat", 1)
		sc("fdatasync", 1)
		sc("close", 1)
	} else {
		sc("openat", 0)
	}
}

function op_ntcreatex(raw, options, disp, fnum, expect_ok,   p, ok, creat) {
	resolve(raw)
	p = norm(raw)
	if (options % 2 == 1) {
		ok = !(p in T) && isdir(npar(p))
		sc("mkdir", ok)
		if (ok)
			add(p, "d")
		ok = isdir(p)
		sc("openat", ok)
	} else {
		creat = disp == 2 || disp == 4 || disp == 5
		if (isdir(p)) {
			sc("openat", 0) # EISDIR
			sc("openat", 1)
			ok = 1
		} else if (p in T) {
			sc("openat", 1)
			ok = 1
		} else if (creat && isdir(npar(p))) {
			sc("openat", 1)
			add(p, "f")
			ok = 1
		} else {
			sc("openat", 0)
			ok = 0
		}
	}
	if (ok)
		sc("newfstatat", 1)
	if (expect_ok) {
		hopen[fnum] = ok
		hpath[fnum] = p
		hdir[fnum] = isdir(p) # opened O_RDONLY|O_DIRECTORY
		if (!ok && model == "dbench")
			warn("dbench: an NTCreateX expected to succeed fails: its handle is then fatal")
	} else if (ok) {
		sc("close", 1) # an open expected to fail that succeeded is closed
	}
}

function fd_ok(fnum) {
	return (fnum in hopen) && hopen[fnum]
}

function op_close(fnum) {
	sc("close", fd_ok(fnum))
	hopen[fnum] = 0
}

function op_unlink(raw,   p, ok) {
	resolve(raw)
	p = norm(raw)
	ok = (p in T) && T[p] == "f"
	sc("unlink", ok)
	if (ok)
		del(p)
	syncparent(raw)
}

function op_rmdir(raw,   p, ok) {
	resolve(raw)
	p = norm(raw)
	ok = isdir(p) && nent[p] == 0 && p != "."
	sc("rmdir", ok)
	if (ok)
		del(p)
	syncparent(raw)
}

function op_mkdir(raw,   p, ok) {
	resolve(raw)
	p = norm(raw)
	ok = !(p in T) && isdir(npar(p))
	sc("mkdir", ok)
	if (ok)
		add(p, "d")
}

function op_rename(raw1, raw2,   a, b, ok, k, n, i, list, ty) {
	resolve(raw1)
	resolve(raw2)
	a = norm(raw1); b = norm(raw2)
	ok = (a in T) && isdir(npar(b)) && a != "." &&
	    !(isdir(b) && (T[a] == "f" || nent[b] > 0)) &&
	    !((b in T) && T[b] == "f" && T[a] == "d") &&
	    index(b "/", a "/") != 1
	if (a == b)
		ok = (a in T)
	sc("rename", ok)
	if (ok && a != b) {
		if (b in T)
			del(b)
		n = 0
		for (k in T)
			if (k == a || index(k, a "/") == 1)
				list[++n] = k
		# parents before children: sort by length
		sortbylen(list, n)
		for (i = 1; i <= n; i++) {
			ty = T[list[i]]
			newk[i] = b substr(list[i], length(a) + 1)
			newt[i] = ty
		}
		for (i = n; i >= 1; i--)
			del(list[i])
		for (i = 1; i <= n; i++)
			add(newk[i], newt[i])
	}
	syncparent(raw2)
}

function sortbylen(list, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = list[i]
		for (j = i - 1; j >= 1 && length(list[j]) > length(t); j--)
			list[j + 1] = list[j]
		list[j + 1] = t
	}
}

# children of @d, into @out; returns how many
function kids(d, out,   k, n) {
	n = 0
	for (k in T)
		if (k != "." && npar(k) == d)
			out[++n] = k
	return n
}

# vfsbench: empty @d through its fd (lseek, getdents64, fstatat, unlinkat;
# subdirectories: openat, recurse, close, unlinkat(AT_REMOVEDIR), and the
# level is read again from the start)
function vempty(d,   n, i, list, nd) {
	n = kids(d, list)
	nd = 0
	for (i = 1; i <= n; i++) {
		if (T[list[i]] == "d")
			nd++
	}
	# every listing of the level: one per subdirectory removed, plus the
	# last one that ends with a getdents64 returning 0
	for (i = 0; i <= nd; i++) {
		sc("lseek", 1)
		sc("getdents64", 1)
	}
	if (nbytes[d] > 32768)
		warn("directory '" d "' holds more than one 32 KiB getdents64 buffer")
	sc("getdents64", 1)
	for (i = 1; i <= n; i++) {
		sc("newfstatat", 1)
		if (T[list[i]] == "d") {
			sc("openat", 1)
			vempty(list[i])
			sc("close", 1)
			sc("unlinkat", 1)
		} else {
			sc("unlinkat", 1)
		}
		del(list[i])
	}
}

# dbench: opendir, stat(path) of each entry, recurse into directories,
# unlink files, closedir; directories stay
function dtree(d,   n, i, list, nr) {
	if (!isdir(d)) {
		sc("openat", 0)
		return
	}
	sc("openat", 1)
	sc("newfstatat", 1)
	n = kids(d, list)
	nr = fullread(d)
	for (i = 1; i < nr; i++)
		sc("getdents64", 1)
	for (i = 1; i <= n; i++) {
		sc("newfstatat", 1)
		if (T[list[i]] == "d") {
			dtree(list[i])
		} else {
			sc("unlink", 1)
			del(list[i])
		}
	}
	sc("getdents64", 1)
	sc("close", 1)
}

function op_deltree(raw,   p) {
	p = norm(raw)
	if (model == "dbench") {
		dtree(p)
		return
	}
	if (!isdir(p)) {
		sc("openat", 0)
		return
	}
	sc("openat", 1)
	sc("newfstatat", 1)
	vempty(p)
	sc("close", 1)
	if (raw != ".") {
		sc("rmdir", 1)
		del(p)
	}
}

function op_find(raw) {
	resolve(raw)
	if (raw ~ /[<>*?"]/)
		readdir_(rawdir(raw), "")
}

function op_sfileinfo(fnum,   ok) {
	ok = fd_ok(fnum)
	sc("newfstatat", ok)
	if (ok)
		sc("utimensat", hpath[fnum] in T)
}

BEGIN {
	if (model == "")
		model = "vfsbench"
	if (model != "vfsbench" && model != "dbench") {
		print "dbench-predict.awk: model must be vfsbench or dbench" > "/dev/stderr"
		err = 1
		exit 2
	}
	T["."] = "d"
	nent["."] = 0
	nbytes["."] = 48
	nargs["NTCREATEX"] = 4; nargs["CLOSE"] = 1; nargs["RENAME"] = 2
	nargs["UNLINK"] = 2; nargs["DELTREE"] = 1; nargs["RMDIR"] = 1
	nargs["MKDIR"] = 1; nargs["QUERY_PATH_INFORMATION"] = 2
	nargs["QUERY_FILE_INFORMATION"] = 2; nargs["QUERY_FS_INFORMATION"] = 1
	nargs["SET_FILE_INFORMATION"] = 2; nargs["FIND_FIRST"] = 4
	nargs["WRITEX"] = 4; nargs["READX"] = 4; nargs["LOCKX"] = 3
	nargs["UNLOCKX"] = 3; nargs["FLUSH"] = 1; nargs["SLEEP"] = 1
}

{
	line = $0
	sub(/\r$/, "", line)
	n = tokenize(line)
	if (n == 0 || substr(tok[1], 1, 1) == "#")
		next
	first = 1
	if (tok[1] ~ /^[0-9]+(\.[0-9]*)?$/)
		first = 2
	if (first > n)
		die("timestamp without an op")
	opn = toupper(tok[first])
	if (!(opn in nargs))
		die("unknown dbench op '" tok[first] "'")
	if (n - first != nargs[opn] + 1)
		die("'" tok[first] "' takes " nargs[opn] " argument(s) before its status")
	for (i = 1; i <= nargs[opn]; i++)
		a[i] = tok[first + i]
	st = tok[n]
	if (st ~ /^NT_STATUS_/)
		ok = st == "NT_STATUS_OK"
	else if (st ~ /^0[xX][0-9a-fA-F]+$/)
		ok = num(st) == 0
	else
		die("bad status '" st "'")
	if (opn == "NTCREATEX")
		op_ntcreatex(mappath(a[1]), num(a[2]), num(a[3]), num(a[4]), ok)
	else if (opn == "CLOSE")
		op_close(num(a[1]))
	else if (opn == "RENAME")
		op_rename(mappath(a[1]), mappath(a[2]))
	else if (opn == "UNLINK")
		op_unlink(mappath(a[1]))
	else if (opn == "DELTREE")
		op_deltree(mappath(a[1]))
	else if (opn == "RMDIR")
		op_rmdir(mappath(a[1]))
	else if (opn == "MKDIR")
		op_mkdir(mappath(a[1]))
	else if (opn == "QUERY_PATH_INFORMATION")
		resolve(mappath(a[1]))
	else if (opn == "QUERY_FILE_INFORMATION")
		sc("newfstatat", fd_ok(num(a[1])))
	else if (opn == "QUERY_FS_INFORMATION")
		sc("statfs", 1)
	else if (opn == "SET_FILE_INFORMATION")
		op_sfileinfo(num(a[1]))
	else if (opn == "FIND_FIRST")
		op_find(mappath(a[1]))
	else if (opn == "WRITEX") {
		h = num(a[1])
		sc("pwrite64", fd_ok(h) && !hdir[h])
		if (fsync && fd_ok(h) && !hdir[h])
			sc("fsync", 1)
	} else if (opn == "READX") {
		h = num(a[1])
		sc("pread64", fd_ok(h) && !hdir[h])
	} else if (opn == "LOCKX") {
		h = num(a[1]) # F_WRLCK needs a descriptor open for writing
		sc("fcntl", fd_ok(h) && !hdir[h])
	} else if (opn == "UNLOCKX")
		sc("fcntl", fd_ok(num(a[1])))
	else if (opn == "FLUSH")
		sc("fsync", fd_ok(num(a[1])))
	else if (opn == "SLEEP")
		sc("clock_nanosleep", 1)
}

END {
	if (err)
		exit 2
	for (k in calls)
		printf "%s %d %d\n", k, calls[k], failed[k] | "sort"
	close("sort")
}
