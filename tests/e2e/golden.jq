# A result file without what depends on timing, the clock or the machine:
# the settings, the loadfile's identity, every count and the structure.
def timed: test("(_ns|_sec|_s|_share|_per_pass|_switches)$") or . == "rusage" or
	. == "last_cpu" or . == "affinity" or . == "main_affinity" or
	. == "migrations" or . == "tid" or
	. == "created" or . == "environment" or . == "command" or
	. == "seed" or . == "cv" or . == "directory";
walk(if type == "object" then
	with_entries(select(.key | timed | not))
     else . end)
