# Shared by ./compare and ./guard: reads package-benchmark's histogramSamples export of mallocCountTotal.

# Prints `scenario<TAB>contender<TAB>mallocs per operation` for every export file of PlexusBenchmarks or PeerBenchmarks
# in directory $1: the median sample divided by 1,000, the operations one benchmark iteration performs
# (`scalingFactor: .kilo`).
mallocs_per_operation() {
    local file name
    for file in "$1"/*.PlexusBenchmarks.*.mallocCountTotal.histogram.samples.tsv \
        "$1"/*.PeerBenchmarks.*.mallocCountTotal.histogram.samples.tsv; do
        [ -e "$file" ] || continue
        name="${file##*/}"
        name="${name#*.PlexusBenchmarks.}"
        name="${name#*.PeerBenchmarks.}"
        name="${name%.mallocCountTotal.histogram.samples.tsv}"
        # package-benchmark writes `unique/plexus` as `unique_plexus`. The first line names the metric and its unit:
        # `(K)` or `(M)` when the counts were exported in thousands or millions.
        awk -v scenario="${name%_*}" -v contender="${name##*_}" '
            NR == 1 { unit = ($0 ~ /\(K\)/) ? 1000 : ($0 ~ /\(M\)/) ? 1000000 : 1; next }
            /^[0-9]+$/ { samples[++count] = $1 * unit; next }
            { print "unexpected line in " FILENAME ": " $0 > "/dev/stderr"; exit 1 }
            END {
                if (count == 0) exit
                # Median: sort the samples (insertion sort; there are at most a few hundred).
                for (i = 2; i <= count; i++) {
                    value = samples[i]
                    for (j = i - 1; j >= 1 && samples[j] > value; j--) samples[j + 1] = samples[j]
                    samples[j + 1] = value
                }
                printf "%s\t%s\t%.3f\n", scenario, contender, samples[int((count + 1) / 2)] / 1000
            }' "$file"
    done
}
