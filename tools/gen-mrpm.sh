#!/bin/sh
# Writes loadfiles/mrpm.load on stdout: FxMark's MRPM as a loadfile, 256
# leaves of an 8-way, 5-deep tree drawn by a fixed linear congruential
# generator, so that the file is the same on every machine.
#   sh tools/gen-mrpm.sh >loadfiles/mrpm.load
set -eu
awk 'BEGIN {
	print "# mrpm.load: FxMark'"'"'s MRPM (\"path lookup, medium sharing\"): clients open"
	print "# and close leaves of one 8-way tree, 5 components deep (4 levels of"
	print "# directories named 0 to 7, files 0 to 7 in them), in an order that looks"
	print "# random: the walks share the upper directories and rarely meet at the"
	print "# leaves.  FxMark draws a random leaf per open; a loadfile has no random"
	print "# numbers, so this file holds 256 leaves drawn once (a fixed linear"
	print "# congruential generator, by tools/gen-mrpm.sh), and [setup] makes only"
	print "# the directories and files they name.  Meant for --cwd shared, where all"
	print "# clients walk one tree; each client starts at the same leaf, so add"
	print "# --warmup to spread them, or compare against mrpl.load and mrph.load."
	print "#"
	print "# Run:  vfsbench -c mrpm.load --cwd shared 1 2 4 8 16 32"
	print ""
	x = 12345
	for (i = 0; i < 256; i++) {
		p = ""
		for (l = 0; l < 5; l++) {
			x = (x * 1103515245 + 12345) % 2147483648
			d = int(x / 65536) % 8
			p = p (l ? "/" : "") d
		}
		leaf[i] = p
	}
	print "[setup]"
	for (i = 0; i < 256; i++) {
		n = split(leaf[i], c, "/")
		q = ""
		for (l = 1; l < n; l++) {
			q = q (l > 1 ? "/" : "") c[l]
			if (!(q in made)) {
				made[q] = 1
				printf "mkdir    %s\n", q
			}
		}
		if (!(leaf[i] in made)) {
			made[leaf[i]] = 1
			printf "create   %s\n", leaf[i]
		}
	}
	print ""
	print "[run]"
	for (i = 0; i < 256; i++) {
		printf "open     %s  rdonly  @1\n", leaf[i]
		print "close    @1"
	}
}'
