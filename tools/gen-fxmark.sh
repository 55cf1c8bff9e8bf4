#!/bin/sh
# Writes FxMark's workloads other than MRPL, MRPM and MRPH (which are
# loadfiles/mrpl.load, mrpm.load by tools/gen-mrpm.sh, and mrph.load) into
# the directory given, as loadfiles of the suite fxmark
# (loadfiles/fxmark.suite, doc/suites.md):
#   sh tools/gen-fxmark.sh loadfiles
# FxMark's workers loop over one call until the time is up; a loadfile's
# pass must leave the tree as it found it, so a pass repeats the call
# N times (N works) and undoes what it did, outside of nothing: the undo
# is measured too, as its own op in the per-op table.
set -eu
out=$1
N=64 # works per pass
R=256 # DRBM/DWOM: the clients whose regions hold a real page

# hdr FILE TEXT: the file, with TEXT as its leading comment
hdr() {
	f=$out/$1
	printf '%s\n' "$2" | sed -e 's/^/# /' -e 's/ *$//' >"$f"
	printf '\n' >>"$f"
}
seqn() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print i }'; }
add() { printf '%s\n' "$@" >>"$f"; }

hdr mrdl.load "mrdl.load: FxMark's MRDL (\"directory read, low sharing\"): each
client reads a directory of its own holding $((R)) files: open(O_DIRECTORY),
getdents64 until it returns 0, close: one whole directory read per
pass.  FxMark opens the directory once and counts every readdir_r() as a
work without ever rewinding it, so after the first pass over the
directory every later \"work\" is a read at its end that returns nothing;
this file reads the directory again from the start each pass, which is
the work the benchmark means to measure.
Suite fxmark runs it with --cwd private (clients/clientN)."
add '[setup]' 'mkdir    d'
for i in $(seqn $R); do add "create   d/f$i"; done
add '' '[run]' 'readdir  d'

hdr mrdm.load "mrdm.load: FxMark's MRDM (\"directory read, medium sharing\"): every
client reads the same directory of $((R)) files, whole, once a pass
(open(O_DIRECTORY), getdents64 until 0, close).  FxMark never rewinds
its directory stream, so most of its works read an exhausted directory;
this file reads the directory from its start each pass.
Suite fxmark runs it with --cwd shared: [setup] makes the directory once."
add '[setup]' 'mkdir    d'
for i in $(seqn $R); do add "create   d/f$i"; done
add '' '[run]' 'readdir  d'

hdr mwcl.load "mwcl.load: FxMark's MWCL (\"create, low sharing\"): each client
creates empty files in a directory of its own, open(O_CREAT|O_RDWR,
0700) and close as FxMark does.  FxMark creates new names until the time
is up; a pass here creates $N and then unlinks them (counted as the
unlink op), so the directory stays small and the tree is unchanged.
Suite fxmark runs it with --cwd private."
add '[run]'
for i in $(seqn $N); do add "open     n_inode_alloc-$i.dat  rdwr,creat  @1  700" 'close    @1'; done
for i in $(seqn $N); do add "unlink   n_inode_alloc-$i.dat"; done

hdr mwcm.load "mwcm.load: FxMark's MWCM (\"create, medium sharing\"): every client
creates files of its own names in one shared directory, each with a 4 KiB
write: open(O_CREAT|O_RDWR, 0700), pwrite of 4 KiB at 0, close.  FxMark
issues write(2) on the new file, which is at offset 0: pwrite(2) at 0 is
the same write.  A pass creates $N files and unlinks them (the unlink op),
so the shared directory stays small.
Suite fxmark runs it with --cwd shared."
add '[run]'
for i in $(seqn $N); do add "open     m_file_cr-\${client}-$i.dat  rdwr,creat  @1  700" 'pwrite   @1  0  4k' 'close    @1'; done
for i in $(seqn $N); do add "unlink   m_file_cr-\${client}-$i.dat"; done

hdr mwul.load "mwul.load: FxMark's MWUL (\"unlink, low sharing\"): each client
unlinks files of its own directory.  FxMark creates files until the
disk is full before the clock starts and unlinks them in the measured
loop; a pass here creates $N files (the open and close ops) and unlinks
them (the unlink op, FxMark's work), since a loadfile's pass must leave
the tree as it found it.
Suite fxmark runs it with --cwd private."
add '[run]'
for i in $(seqn $N); do add "open     u_file_rm-$i.dat  rdwr,creat  @1  700" 'close    @1'; done
for i in $(seqn $N); do add "unlink   u_file_rm-$i.dat"; done

hdr mwum.load "mwum.load: FxMark's MWUM (\"unlink, medium sharing\"): every client
unlinks files of its own names in one shared directory; a pass creates
$N (open and close ops) and unlinks them (the unlink op, FxMark's work).
Suite fxmark runs it with --cwd shared."
add '[run]'
for i in $(seqn $N); do add "open     u_sh_file_rm-\${client}-$i.dat  rdwr,creat  @1  700" 'close    @1'; done
for i in $(seqn $N); do add "unlink   u_sh_file_rm-\${client}-$i.dat"; done

hdr mwrl.load "mwrl.load: FxMark's MWRL (\"rename, low sharing\"): each client
renames one file of its own directory from name n to name n+1, as
FxMark does; a pass is $N renames that bring it back to its first name.
Suite fxmark runs it with --cwd private."
add '[setup]' 'create   n_file_rename-0.dat' '' '[run]'
for i in $(seqn $N); do add "rename   n_file_rename-$i.dat  n_file_rename-$(((i + 1) % N)).dat"; done

hdr mwrm.load "mwrm.load: FxMark's MWRM (\"rename, medium sharing\"): each client
moves files from a directory of its own into the shared directory,
rename(\"ID/n_dir_ins-ID-I.dat\", \"n_dir_ins-ID-I.dat\"), as FxMark
does in its root.  The client's own directory is \${client} inside the
shared directory, FxMark's layout; a pass moves $N files in and then
moves them back (the same rename across the two directories the other
way), so both halves are renames between a private and the shared
directory and a pass is $((2 * N)) works.
Suite fxmark runs it with --cwd shared."
add '[setup]' 'mkdir    ${client}'
for i in $(seqn $N); do add "create   \${client}/n_dir_ins-\${client}-$i.dat"; done
add '' '[run]'
for i in $(seqn $N); do add "rename   \${client}/n_dir_ins-\${client}-$i.dat  n_dir_ins-\${client}-$i.dat"; done
for i in $(seqn $N); do add "rename   n_dir_ins-\${client}-$i.dat  \${client}/n_dir_ins-\${client}-$i.dat"; done

hdr drbl.load "drbl.load: FxMark's DRBL (\"block read, low sharing\"): each client
reads the one 4 KiB page of a file of its own with pread(2) at offset 0.
FxMark keeps the file open for the whole run; a loadfile's handles last
one pass, so a pass opens it, reads $N times and closes it.
Suite fxmark runs it with --cwd private."
add '[setup]' 'open     n_file_rd.dat  rdwr,creat  @1  700' 'pwrite   @1  0  4k' 'close    @1' '' '[run]' 'open     n_file_rd.dat  rdonly  @1'
for i in $(seqn $N); do add 'pread    @1  0  4k'; done
add 'close    @1'

region_setup() {
	add '[setup]' "open     $1  rdwr,creat  @1  700"
	for i in $(seqn $R); do add "pwrite   @1  $((i * 8))m  4k"; done
	add 'fsync    @1' 'close    @1' ''
}
hdr drbm.load "drbm.load: FxMark's DRBM (\"block read, medium sharing\"): every
client reads a page of its own 8 MiB region of one shared file, pread(2)
of 4 KiB at \${client} * 8 MiB.  FxMark writes every page of every
region; a client reads only its region's first page, so [setup] writes
that page for $R clients and leaves the rest of the file a hole (a
client numbered $R or more would read a hole: add lines for more).
A pass opens the file, reads $N times and closes it.
Suite fxmark runs it with --cwd shared: [setup] writes the file once."
region_setup n_shfile_rd.dat
add '[run]' 'open     n_shfile_rd.dat  rdonly  @1'
for i in $(seqn $N); do add 'pread    @1  ${client}*8m  4k'; done
add 'close    @1'

hdr drbh.load "drbh.load: FxMark's DRBH (\"block read, high sharing\"): every client
reads the same 4 KiB page of one shared file, pread(2) at offset 0.  A
pass opens the file, reads $N times and closes it.
Suite fxmark runs it with --cwd shared: [setup] writes the file once."
add '[setup]' 'open     n_shblk_rd.dat  rdwr,creat  @1  700' 'pwrite   @1  0  4k' 'fsync    @1' 'close    @1' '' '[run]' 'open     n_shblk_rd.dat  rdonly  @1'
for i in $(seqn $N); do add 'pread    @1  0  4k'; done
add 'close    @1'

hdr dwol.load "dwol.load: FxMark's DWOL (\"block overwrite, low sharing\"): each
client overwrites the one 4 KiB page of a file of its own, pwrite(2) at
offset 0.  A pass opens the file, writes $N times and closes it.
Suite fxmark runs it with --cwd private."
add '[setup]' 'open     n_blk_wrt.dat  rdwr,creat  @1  700' 'pwrite   @1  0  4k' 'close    @1' '' '[run]' 'open     n_blk_wrt.dat  rdwr  @1'
for i in $(seqn $N); do add 'pwrite   @1  0  4k'; done
add 'close    @1'

hdr dwom.load "dwom.load: FxMark's DWOM (\"block overwrite, medium sharing\"): every
client overwrites a page of its own 8 MiB region of one shared file,
pwrite(2) of 4 KiB at \${client} * 8 MiB: the data are private, the inode
(its size, times and lock) is shared.  [setup] writes each region's
first page for $R clients; a pass opens the file, writes $N times and
closes it.
Suite fxmark runs it with --cwd shared: [setup] writes the file once."
region_setup n_mtime_upt.dat
add '[run]' 'open     n_mtime_upt.dat  rdwr  @1'
for i in $(seqn $N); do add 'pwrite   @1  ${client}*8m  4k'; done
add 'close    @1'

hdr dwal.load "dwal.load: FxMark's DWAL (\"block append, low sharing\"): each client
appends 4 KiB pages to a file of its own, so every write allocates a
block.  FxMark appends with write(2) until the disk is full; a pass here
opens the file with O_APPEND|O_TRUNC (emptying it, inside the open op)
and appends $N pages with pwrite(2), which on a file opened with
O_APPEND writes at its end whatever the offset (pwrite(2), BUGS): the
write path of an append, at a bounded file size.
Suite fxmark runs it with --cwd private."
add '[run]' 'open     n_blk_alloc.dat  wronly,creat,append,trunc  @1  700'
for i in $(seqn $N); do add 'pwrite   @1  0  4k'; done
add 'close    @1'

hdr dwsl.load "dwsl.load: FxMark's DWSL (\"fsync, low sharing\"): each client
overwrites the page of a file of its own and fsyncs it, pwrite(2) of
4 KiB at 0 then fsync(2), one work per pair.  A pass opens the file,
does $N pairs and closes it.
Suite fxmark runs it with --cwd private."
add '[setup]' 'open     n_jnl_cmt.dat  rdwr,creat  @1  700' 'pwrite   @1  0  4k' 'close    @1' '' '[run]' 'open     n_jnl_cmt.dat  rdwr  @1'
for i in $(seqn $N); do add 'pwrite   @1  0  4k' 'fsync    @1'; done
add 'close    @1'

hdr dwtl.load "dwtl.load: FxMark's DWTL (\"truncate, low sharing\"): each client
shrinks a file of its own by one 4 KiB page per ftruncate(2).  FxMark
fills the disk with the file before the clock starts and shrinks it page
by page; a pass here writes $N pages (one pwrite of $((N * 4)) KiB, its own
op) and shrinks them away one ftruncate at a time, down to 0.
Suite fxmark runs it with --cwd private."
add '[run]' 'open     u_file_tr.dat  rdwr,creat  @1  700' "pwrite   @1  0  $((N * 4))k"
for i in $(seqn $N); do add "ftruncate  @1  $(((N - 1 - i) * 4))k"; done
add 'close    @1'
