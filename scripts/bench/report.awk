# scripts/bench/report.awk: the numbers of `make bench` from its runs (scripts/bench.sh passes
# rows.tsv, then runs.txt: "id run wall inloop instructions cycles result status" per run).
# For every row: median and min-max of the whole-process and in-loop seconds; the headline
# ratio to the ceiling, per run: the row's instruction rate (in-loop where the run reports it,
# whole-process otherwise) over the in-loop rate of the ceiling's companion run right after it
# (id "ceiling@ROW"; a peer uses its row's), median and min-max of those ratios (without
# companion runs: over the ceiling row's median rate); for a row with a peer, the ratio of
# their whole-process instruction rates per interleaved pair (median, min-max). A row whose median whole-process run is under `minsec`
# seconds is marked short. Prints the table, appends one CSV line per row to `hist` and
# writes the Markdown table to `md`. Exit status 1 when any row failed.
function fmt_r(x) { return x >= 10 ? sprintf("%.1f", x) : x >= 0.1 ? sprintf("%.2f", x) : sprintf("%.3f", x) }
function fmt_s(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.3f", x) }
function sortn(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
# median, min and max of a[1..n] (sorted in place) into M, LO, HI
function stats(a, n) {
    sortn(a, n); LO = a[1]; HI = a[n]
    M = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function spread(m, lo, hi, f) {
    return f == "s" ? fmt_s(m) " (" fmt_s(lo) "-" fmt_s(hi) ")" : fmt_r(m) " (" fmt_r(lo) "-" fmt_r(hi) ")"
}
# the values of one row: fills W[], L[], R[] (rates) with nw, nl, nr entries
function collect(id,   k) {
    nw = nl = nr = 0; split("", W); split("", L); split("", R); inloop_rate = 1
    for (k = 1; k <= cnt[id]; k++) {
        if (st[id, k] != "ok" || wall[id, k] == "-") continue
        W[++nw] = wall[id, k]
        if (inl[id, k] != "-") L[++nl] = inl[id, k]
        if (inl[id, k] != "-" && inl[id, k] > 0) R[++nr] = ins[id, k] / inl[id, k]
        else { inloop_rate = 0; R[++nr] = ins[id, k] / (wall[id, k] > 0 ? wall[id, k] : 1e-9) }
    }
}
# the rate of run k of id: in-loop where reported, whole process otherwise
function rate(id, k) {
    if (inl[id, k] != "-" && inl[id, k] > 0) return ins[id, k] / inl[id, k]
    return ins[id, k] / (wall[id, k] > 0 ? wall[id, k] : 1e-9)
}
# the ratios of id's runs to their companion ceiling runs (cid) into Q[1..nq]
function pairs(id, cid,   k) {
    nq = 0; split("", Q)
    for (k = 1; k <= cnt[id]; k++)
        if (st[id, k] == "ok" && wall[id, k] != "-" && st[cid, k] == "ok" && rate(cid, k) > 0)
            Q[++nq] = rate(id, k) / rate(cid, k)
}
BEGIN { FS = "\t" }
FNR == NR { order[++nrows] = $3; name[$3] = $4; role[$3] = $2; if ($2 == "peer") { peer[$8] = $3; of[$3] = $8 }; next }
{
    split($0, f, " "); id = f[1]; k = ++cnt[id]
    wall[id, k] = f[3]; inl[id, k] = f[4]; ins[id, k] = f[5]; st[id, k] = f[8]
    if (f[8] != "ok") { failed[id] = 1; why[id] = f[8] }
}
END {
    collect("ceiling")
    if (nr > 0) { stats(R, nr); ceil = M }
    hdr = sprintf("%-46s %-20s %-18s %6s %-24s %-24s %s", "row", "x ceiling", "x peer",
                  "M/s", "whole process s", "in-loop s", "check")
    print hdr
    print "| row | × ceiling | × peer | M instr/s | whole process s | in-loop s | instructions | check |" > md
    print "|---|---|---|---|---|---|---|---|" > md
    bad = 0
    for (r = 1; r <= nrows; r++) {
        id = order[r]
        if (!(id in cnt)) continue
        collect(id)
        check = failed[id] ? "FAIL " why[id] : "ok"
        if (failed[id]) bad = 1
        if (nw == 0) {
            printf "%-46s %-20s %-18s %6s %-24s %-24s %s\n", name[id], "-", "-", "-", "-", "-", check
            printf "| %s | - | - | - | - | - | - | %s |\n", name[id], check > md
            printf "%s,%s,%s,,,,,,,,,%d,FAIL\n", date, commit, id, cnt[id] >> hist
            continue
        }
        stats(R, nr); rm = M; rlo = LO; rhi = HI
        cid = "ceiling@" (role[id] == "peer" ? of[id] : id)
        if (failed[cid]) { bad = 1; check = (failed[id] ? check "; " : "FAIL ") "ceiling companion: " why[cid]; failed[id] = 1 }
        pairs(id, cid)
        if (nq > 0) {
            stats(Q, nq); ratio = M
            xc = fmt_r(M) (inloop_rate ? "" : " w") " (" fmt_r(LO) "-" fmt_r(HI) ")"
        } else {
            xc = ceil > 0 ? fmt_r(rm / ceil) (inloop_rate ? "" : " w") " (" fmt_r(rlo / ceil) "-" fmt_r(rhi / ceil) ")" : "-"
            ratio = ceil > 0 ? rm / ceil : ""
        }
        xp = "-"; pm = ""
        if (id in peer && peer[id] in cnt) {
            p = peer[id]; n = 0; split("", P)
            for (k = 1; k <= cnt[id]; k++)
                if (st[id, k] == "ok" && st[p, k] == "ok" && wall[id, k] > 0 && wall[p, k] > 0)
                    P[++n] = (ins[id, k] / wall[id, k]) / (ins[p, k] / wall[p, k])
            if (n > 0) { stats(P, n); xp = spread(M, LO, HI, "r"); pm = M }
        }
        if (role[id] == "peer") xp = "(peer)"
        stats(W, nw); wm = M; ws = spread(M, LO, HI, "s"); wlo = LO; whi = HI
        # issue 9: every run at least a second; a row under it is flagged (its spread and
        # ratios mean less), and its iteration count should grow
        if (wm < minsec) { check = check " (short: " fmt_s(wm) " s)"; short = short " " id }
        ls = "-"; lm = llo = lhi = ""
        if (nl > 0) { stats(L, nl); ls = spread(M, LO, HI, "s"); lm = M; llo = LO; lhi = HI }
        printf "%-46s %-20s %-18s %6.0f %-24s %-24s %s\n", name[id], xc, xp, rm / 1e6, ws, ls, check
        k = 1; while (st[id, k] != "ok" && k < cnt[id]) k++
        printf "| %s | %s | %s | %.0f | %s | %s | %s | %s |\n", name[id], xc, xp, rm / 1e6, ws, ls,
            ins[id, k], check > md
        printf "%s,%s,%s,%.6f,%.6f,%.6f,%s,%s,%s,%s,%s,%d,%s\n", date, commit, id, wm, wlo, whi,
            ratio == "" ? "" : sprintf("%.4f", ratio), pm == "" ? "" : sprintf("%.4f", pm),
            lm == "" ? "" : sprintf("%.6f", lm), llo == "" ? "" : sprintf("%.6f", llo),
            lhi == "" ? "" : sprintf("%.6f", lhi), cnt[id], failed[id] ? "FAIL" : "ok" >> hist
    }
    printf "\nMeasured %s, commit %s, %s runs per row (each row interleaved with its peer and a ceiling run); host: %s, %s CPUs; load average %s before, %s after.\n",
        date, commit, runs, cpu, ncpu, load0, load1 > md
    print "× ceiling: per run, the row's instruction rate (in-loop; \"w\": whole process) over the in-loop rate of a ceiling run (120,000,000 iterations) made right after it; median (min-max) of those ratios. The ceiling row's own line is its absolute rate. × peer: whole-process instruction rate over the peer's, per interleaved pair. Times: median (min-max) in seconds." > md
    while ((getline l < notes) > 0) { print "- " l > md; print "note: " l }
    if (short != "") {
        l = "rows whose median whole-process run took under " minsec " s (\"short\"; raise their iteration counts):" short
        print "- " l > md; print "note: " l
    }
    printf "\nx ceiling: per run, instruction rate (in-loop; w: whole process) / the rate of the ceiling run right after it; x peer: whole-process rate / the peer's, per pair. median (min-max).\n"
    printf "load average %s before, %s after; history: %s\n", load0, load1, hist
    close(md); close(hist)
    exit bad
}
