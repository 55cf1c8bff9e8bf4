# For each run of an MPI job's JSON and each op of its table: rank 0's
# merged figures against the ranks' own histograms merged here, bucket
# by bucket, with the percentile rule of stats/hist.c done again: the
# nearest rank ceil(p/100 * count); rank 1 is min and the last max; any
# other the middle of its bucket (1 ns wide below 64 ns, else 1/32 of its
# power of two), clamped to [min, max]. One line per run and op:
# index, op, then true/false for count, min, max, p50, p90, p99, p99.9.
def width($low): if $low < 64 then 1 else pow(2; ($low | log2 | floor) - 5) end;
def pct($h; $p):
	$h.count as $n
	| ($p * $n / 100 | . - . * 1e-12 | ceil
	   | if . < 1 then 1 elif . > $n then $n else . end) as $rank
	| if $rank == 1 then $h.min
	  elif $rank == $n then $h.max
	  else (reduce $h.buckets[] as $b ({seen: 0, low: null};
			if .low == null then
				.seen += $b[1]
				| if .seen >= $rank then .low = $b[0] else . end
			else . end) | .low) as $low
		| ($low + (width($low) / 2 | floor))
		| if . < $h.min then $h.min elif . > $h.max then $h.max else . end
	  end;
def merged($hs):
	{ count: ($hs | map(.count) | add),
	  min: ($hs | map(select(.count > 0) | .min_ns) | min),
	  max: ($hs | map(.max_ns) | max),
	  buckets: ($hs | map(.buckets[]) | group_by(.[0])
		    | map([.[0][0], (map(.[1]) | add)]) | sort_by(.[0])) };
.runs[] as $run
| range(0; $run.ops_detail | length) as $s
| merged($run.ranks | map(.ops_detail[$s])) as $m
| $run.ops_detail[$s] as $o
| select($m.count > 0)
| [$run.index, $o.op, ($o.count == $m.count), ($o.min_ns == $m.min),
   ($o.max_ns == $m.max), ($o.p50_ns == pct($m; 50)),
   ($o.p90_ns == pct($m; 90)), ($o.p99_ns == pct($m; 99)),
   ($o.p999_ns == pct($m; 99.9))]
| @tsv
