# The calls between the marker lookups m/mark.0 and m/mark.1, one a line:
# the call, the fd its lookup starts from (AT_FDCWD, or DIRFD: the
# client's O_PATH directory fd), its path strings (ABS: the work
# directory's absolute path) and its lookup flags.
/openat\([0-9]+, "\.", O_RDONLY\|O_CLOEXEC\|O_PATH\|O_DIRECTORY\) = [0-9]+$/ {
	dirfd = $NF
	next
}
/m\/mark\.0"/ { on = 1; next }
/m\/mark\.1"/ { on = 0; next }
!on || !/"/ { next }
{
	line = $0
	sub(/ += [-0-9].*$/, "", line)
	sub(/\)$/, "", line)
	call = line
	sub(/\(.*/, "", call)
	out = call
	args = substr(line, length(call) + 2)
	n = split(args, a, /, /)
	flags = ""
	for (i = 1; i <= n; i++) {
		t = a[i]
		# an fd is where a lookup starts only before a path
		if (t == dirfd && dirfd != "" && a[i + 1] ~ /^"/)
			out = out " DIRFD"
		else if (t == "AT_FDCWD" || t ~ /^"/)
			out = out " " t
		else if (t == "AT_SYMLINK_NOFOLLOW" || t == "AT_REMOVEDIR")
			flags = flags " " t
	}
	if (line ~ /resolve=/) {
		r = line
		sub(/.*resolve=/, "", r)
		sub(/}.*/, "", r)
		out = out " " r
	}
	out = out flags
	if (abs != "")
		gsub(abs, "ABS", out)
	print out
}
