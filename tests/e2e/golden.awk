# The shape of a vfsbench text report with everything that depends on
# timing masked as "#": counts, names, structure and messages stay. Used by
# t9002 to check that a change meant to keep behaviour keeps it.
function mask(s) {
	gsub(/[0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h)/, "#", s)
	gsub(/[0-9]+\.[0-9]+%?/, "#", s)
	return s
}
/^directory / { print "directory #"; next }
# the machine: its CPUs, topology and environment, and the clients' noise
/^cpus / { print "cpus #"; next }
/^environment: / { print "environment: #"; next }
/^sched_features / { print "sched_features #"; next }
/^Noise per client: / { print "Noise per client: #"; next }
/^CPU: / || /^Time per pass per client/ || /^warning: starved/ { next }
/^warning: .*coefficient of variation/ { next }
/^Operation / { table = "native"; print; next }
/^ Operation / { table = "dbench"; print; next }
table == "native" && NF == 9 && $2 ~ /^[0-9]+$/ { print $1, $2, $9; next }
table == "dbench" && NF == 4 && $2 ~ /^[0-9]+$/ { print $1, $2; next }
/^Clients / { table = "sweep"; print; next }
table == "sweep" && NF == 8 { print $1, $6; next }
/^Throughput / { print "Throughput # MB/sec ", $4, "clients ", $6, "procs  max_latency=# ms"; next }
{ table = $0 == "" || $0 ~ /^(Total|Unexpected)/ ? "" : table; print mask($0) }
