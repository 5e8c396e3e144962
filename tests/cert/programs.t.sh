#!/bin/sh
# tests/cert/programs.t.sh: our own CERT programs (programs/cert/*.asm), assembled with
# `xpusim asm --isa cert` and run with `xpusim run` / `xpusim debug`. Together they hold
# every opcode of the newest spec (0x00-0x23 except the unused 0x0a), EOF and the 0xA5
# filler (.align in a job); multi-uC remote barriers; a deliberate hang of each kind. Every
# expected cycle count below is DERIVED by hand from the documented defaults
# (isa/cert/timing.c), never copied from a run:
#   page fetch       250 + ceil(0.125 x the header's page length), the page's fetch starting
#                    at cycle 0 (page 0), when the page before it STARTS (ping-pong: next
#                    in-order page), or when a LOAD/PREEMPT opcode ends its cost (its page)
#   page length      16 (header) + the jobs + 4 (EOF) [+ 0xA5 filler to make the text a
#                    multiple of 16, only when there is data] + the data, rounded up to 4
#   parser           30 (cost_job) per START_JOB*, START_JOB_DEFERRED and EOF it reads (a
#                    START_COND_JOB_PREEMPT without -o preempt=1 is skipped for free); a job
#                    whose first opcode is LOAD_PDI/LOAD_CORES/LOAD_LAST_PDI/PREEMPT runs
#                    alone: it is parsed only when no job is left, and the parser stops
#                    after it until it ends
#   dispatch         12 (sched_pass); round-robin from the slot after the one last picked;
#                    a job that blocked and was released finishes the blocking opcode at
#                    no further cost after its dispatch
#   opcode classes   START_JOB*/END_JOB/LAUNCH_JOB/EOF 30, MOV/ADD 10, YIELD/NOP/SLEEP 10,
#                    WRITE_32/WRITE_32_D 15 + axi_write 40, READ_32/READ_32_D/SAVE_REGISTER
#                    15 + axi_read 50, MASK_WRITE_32 15 + 50 + 40, POLL_32/MASK_POLL_32
#                    20 + 50 per attempt, UC_DMA_MASK_POLL_EXT 20 + 50 + ucdma_setup 30,
#                    REL_ACQ_SYNC 20 + 50 (release read) + 50 (acquire read), WAIT_TCTS 20,
#                    barriers 25, uC-DMA opcodes 40, APPLY_OFFSET_* 50, LOAD*/PREEMPT 100,
#                    TRACE/SAVE_TIMESTAMPS 20 (the record holds the cycle the opcode began),
#                    SLEEP also target us x 500 (uc_mhz)
#   uC-DMA           a chain starts when queued (or when the engine frees) and takes
#                    30 per BD + 2 per word
#   array DMA task   starts at the push (or when the task before it on the channel ends):
#                    8 + ceil(words / 2.5); its token reaches the uC 30 (tct_latency) later
# Programs with opcodes above 0x1c are assembled with -o spec=latest and, because our
# assembler writes OSABI 0x40 with ABI 2 (which `run` takes for aiebu Feb-2025), also run
# with -o spec=latest.
set -u
X=${XPUSIM:-build/xpusim}
R=${XPUSIM_ROOT:-.}
P="$R/programs/cert"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
if [ ! -x "$X" ] || [ ! -d "$P" ]; then
    echo "SKIP: no xpusim binary ($X) or no programs/cert ($P)"
    exit 0
fi

LATEST="pages preempt ops"
for f in "$P"/*.asm; do
    b=$(basename "$f" .asm)
    spec=
    case " $LATEST " in *" $b "*) spec="-o spec=latest" ;; esac
    # shellcheck disable=SC2086
    "$X" asm --isa cert -o aiebu=2025.02 $spec "$f" -o "$T/$b.elf" 2>"$T/asm.err" || no "$b.asm does not assemble: $(cat "$T/asm.err")"
done

# run NAME [options...]: stats (and reports) into $T/NAME.out, exit status into $rc
run() {
    n=$1
    shift
    "$X" run "$T/$n.elf" "$@" >"$T/$n.out" 2>&1
    rc=$?
}
# cycles NAME N: the run ended at cycle N
cycles() { grep -q "^cycles: $2 " "$T/$1.out" || no "$1: $(grep '^cycles' "$T/$1.out"), expected $2"; }
has() { grep -q -- "$2" "$T/$1.out" || no "$1: no '$2' in: $(grep -v '^model' "$T/$1.out" | head -30)"; }
# debug NAME 'commands' [options...]: a debugger session whose asserts must hold
debug() {
    n=$1
    printf '%b' "$2" >"$T/$n.cmds"
    shift 2
    "$X" debug "$T/$n.elf" -x "$T/$n.cmds" "$@" >"$T/$n.dbg" 2>&1 || no "$n: debugger session (an assert failed?): $(cat "$T/$n.dbg")"
}

# ---- 0. coverage: every opcode of the newest spec is in some program ----------------------
for op in START_JOB UC_DMA_WRITE_DES WAIT_UC_DMA MASK_WRITE_32 LOAD_CORES WRITE_32 WAIT_TCTS END_JOB YIELD \
    UC_DMA_WRITE_DES_SYNC WRITE_32_D READ_32 READ_32_D APPLY_OFFSET_57 ADD MOV LOCAL_BARRIER REMOTE_BARRIER \
    POLL_32 MASK_POLL_32 TRACE NOP START_JOB_DEFERRED LAUNCH_JOB PREEMPT LOAD_PDI LOAD_LAST_PDI SAVE_TIMESTAMPS \
    SLEEP SAVE_REGISTER START_COND_JOB_PREEMPT LOAD_CORES_CP REL_ACQ_SYNC UC_DMA_MASK_POLL_EXT APPLY_OFFSET_PL EOF; do
    # the mnemonic as an instruction (first word of a line outside comments), in a program that runs
    cat "$P"/dma_tokens.asm "$P"/barriers.asm "$P"/multi_uc.asm "$P"/pages.asm "$P"/preempt.asm "$P"/ops.asm |
        sed 's/;.*//' | grep -qiE "^[[:space:]]*$op([[:space:]]|\$)" || no "opcode $op is in no running program"
done
# the 0xA5 filler: barriers.asm's .align 16 inside job 2 (12 bytes before its END_JOB)
"$X" disasm "$T/barriers.elf" >"$T/barriers.dis" 2>&1 || no "disasm barriers: $(cat "$T/barriers.dis")"
[ "$(grep -c '^ *\.ALIGN 16' "$T/barriers.dis")" -eq 12 ] || no "barriers: filler bytes: $(grep -c ALIGN "$T/barriers.dis")"
grep -A1 'READ_32.*\$g2' "$T/barriers.dis" | grep -q 'ALIGN' || no "barriers: no filler inside job 2"

# ---- 1. dma_tokens.asm ---------------------------------------------------------------------
# Page: START_JOB 8 + UC_DMA_WRITE_DES 8 + WAIT_UC_DMA 4 + 2 x WRITE_32 12 + WAIT_TCTS 8 +
# READ_32 8 + END_JOB 4 = 64 of jobs, EOF 4, filler to 16 (64 + 4 = 68 -> 12), data: 2 BDs
# (32) + 2 x 8 words (64) = 96: length 16 + 64 + 4 + 12 + 96 = 192, fetch 250 + 24 = 274.
#   START_JOB 304, EOF 334, dispatch 346
#   UC_DMA_WRITE_DES 386: chain of 2 BDs, 16 words: 60 + 32 = 92 -> done 478; $r0 = handle 1
#   WAIT_UC_DMA 426: blocks (ucdma stall 478 - 426 = 52)
#   478 done: dispatch 490
#   WRITE_32 (BD 0, token) lands 490 + 15 + 40 = 545: task 8 + ceil(128 / 2.5) = 60 -> 605,
#     token at 635
#   WRITE_32 (BD 1, token) lands 600: queued; starts at 605: 8 + ceil(64 / 2.5) = 34 -> 639,
#     token at 669
#   WAIT_TCTS 620: blocks (0 of 2); 635: 1 of 2; 669: released (tct stall 669 - 620 = 49)
#   dispatch 681, READ_32 681 + 65 = 746 ($g1 = 0x80), END_JOB 776: the uC halts at 776.
# Counters: 2 tokens, 64 uC-DMA bytes, axi_writes 16 uC-DMA words + 2 WRITE_32 = 18.
run dma_tokens
[ $rc -eq 0 ] || no "dma_tokens: exit $rc: $(tail -3 "$T/dma_tokens.out")"
cycles dma_tokens 776
has dma_tokens '^  tokens: 2$'
has dma_tokens '^  ucdma_bytes: 64$'
has dma_tokens '^  axi_writes: 18$'
has dma_tokens 'stall tct 49, stall ucdma 52,'
debug dma_tokens 'continue\nassert stop halted\nassert cycle == 776\nthread 0.0\nassert $g1 == 0x80\nassert $r0 == 1\n'

# ---- 2. barriers.asm -----------------------------------------------------------------------
# Job 1: START_JOB 8, MOV 8, MOV 8, ADD 8, WRITE_32_D 12, LAUNCH_JOB 4, YIELD 4, READ_32_D 4,
# WRITE_32 12, MASK_WRITE_32 16, LOCAL_BARRIER 4, END_JOB 4 = 92. Job 2 from 92:
# START_JOB_DEFERRED 8, NOP 4, READ_32 8, LOCAL_BARRIER 4, MASK_POLL_32 16, WRITE_32_D 12,
# POLL_32 12, READ_32 8 (-> 164), .align 16: 12 filler bytes (-> 176), END_JOB 4 = 88.
# No data: length 16 + 180 + 4 = 200, fetch 250 + 25 = 275.
#   START_JOB 1 305 (slot 0), START_JOB_DEFERRED 2 335 (slot 1, deferred), EOF 365
#   slot 0: dispatch 377, MOV 387, MOV 397, ADD 407 ($r2 = 0x15A), WRITE_32_D 462,
#     LAUNCH_JOB 492 (job 2 ready), YIELD 502
#   slot 1 (after slot 0 in round-robin): dispatch 514, NOP 524, READ_32 589 ($g0 = 0x15A),
#     LOCAL_BARRIER 614: 1 of 2, blocks
#   slot 0: dispatch 626, READ_32_D 691 ($r3 = 0x15A), WRITE_32 746, MASK_WRITE_32 746 + 15 +
#     50 + 40 = 851 (0xFFFF0000 -> 0xFFFF5A5A), LOCAL_BARRIER 876: 2 of 2, job 2 released,
#     END_JOB 906 (thread 0 halted at 906)
#   slot 1: dispatch 918 (the barrier completes), MASK_POLL_32 988 (matches at the first
#     attempt), WRITE_32_D 1043, POLL_32 1113 (matches), READ_32 1178 ($g2), the filler
#     costs nothing, END_JOB 1208: halt at 1208. Barrier stall of job 2: 876 - 614 = 262.
run barriers
[ $rc -eq 0 ] || no "barriers: exit $rc: $(tail -3 "$T/barriers.out")"
cycles barriers 1208
has barriers '^  yields: 1$'
has barriers '^  poll_retries: 0$'
has barriers 'thread 0: cycles 906, .*halted at 906'
has barriers 'thread 1: .*halted at 1208, stall barrier 262,'
debug barriers 'continue\nassert stop halted\nassert cycle == 1208\nthread 0.0\nassert $g0 == 0x15a\nassert $g2 == 0xffff5a5a\nassert $r3 == 0x15a\nassert $r2 == 0x15a\n'

# ---- 3. multi_uc.asm: three uCs, $rb0 (mask 0x7) and $rb1 (mask 0x3) ---------------------
# uC 0 page: START_JOB 8 + 2 x REMOTE_BARRIER 8 + SAVE_TIMESTAMPS 8 + END_JOB 4 = 36, + EOF
#   4: length 56, fetch 257. uC 1: 8 + 2 x MOV 8 + 2 x 8 + 4 = 44: length 64, fetch 258.
#   uC 2: 8 + WRITE_32 12 + 8 + 8 + 4 = 40: length 60, fetch 250 + ceil(7.5) = 258.
# uC 0: START_JOB 287, EOF 317, dispatch 329, $rb0 354 (blocks: arrived uC 0)
# uC 1: START_JOB 288, EOF 318, dispatch 330, MOV 340, MOV 350, $rb0 375 (arrived 0, 1)
# uC 2: START_JOB 288, EOF 318, dispatch 330, WRITE_32 385, $rb0 410: all three: matured,
#   uC 0 and uC 1 released at 410; SAVE_TIMESTAMPS 2 at 410 -> 430, END_JOB 460
# uC 0: dispatch 422, SAVE_TIMESTAMPS 1 at 422 -> 442, $rb1 467
# uC 1: dispatch 422, $rb1 447 (blocks: arrived uC 1); uC 0 at 467 matures it, END_JOB 497
# uC 1: dispatch 479, END_JOB 509. The run ends at 509.
# Remote-barrier stalls: uC 0 410 - 354 = 56; uC 1 (410 - 375) + (467 - 447) = 55.
run multi_uc
[ $rc -eq 0 ] || no "multi_uc: exit $rc: $(tail -3 "$T/multi_uc.out")"
cycles multi_uc 509
has multi_uc '^uc0: cycles 497,'
has multi_uc '^uc1: cycles 509,'
has multi_uc '^uc2: cycles 460,'
has multi_uc 'stall remote_barrier 56,'
has multi_uc 'stall remote_barrier 55,'
# (info records shows the selected uC's records; uC 1's MOV $g3 is in uC 1's own globals)
debug multi_uc 'continue\nassert stop halted\nassert cycle == 509\ninfo records\nthread 2.0\ninfo records\nthread 1.0\nassert $g3 == 0x31\nthread 0.0\nassert $g3 == 0\n'
grep -q '^uc0 page 0 offset 0x0020 SAVE_TIMESTAMPS id 1: cycle 422 ' "$T/multi_uc.dbg" || no "multi_uc records: $(grep SAVE "$T/multi_uc.dbg")"
grep -q '^uc2 page 0 offset 0x002c SAVE_TIMESTAMPS id 2: cycle 410 ' "$T/multi_uc.dbg" || no "multi_uc records: $(grep SAVE "$T/multi_uc.dbg")"

# ---- 4. pages.asm: three in-order pages, LOAD_PDI / LOAD_CORES / LOAD_LAST_PDI pages -------
# Pages (label scopes are paged after the main code, in name order): 0, 1, 2 in order;
# 3 = cores_a, 4 = pdi_a. Lengths and fetches:
#   page 0: START_JOB 8, SAVE_TIMESTAMPS 8, TRACE 4, SLEEP 8, END_JOB 4 = 32: 52 -> 257
#   page 1: 2 x (START_JOB 8 + LOAD_PDI 12 + END_JOB 4) = 48: 68 -> 250 + ceil(8.5) = 259
#   page 2: LOAD_CORES job 24, LOAD_LAST_PDI job 16, job 6 (8 + LOAD_CORES_CP 8 +
#           SAVE_REGISTER 12 + 4) 32, job 7 20 = 92: 112 -> 264
#   page 3: 20: 40 -> 255;  page 4: 8 + READ_32 8 + ADD 8 + WRITE_32_D 12 + 8 + 4 = 48: 68 -> 259
# page 0 fetched at 257 and starts: page 1's fetch runs 257 -> 516
#   START_JOB 287, EOF 317, dispatch 329, SAVE_TIMESTAMPS 1 at 329 -> 349, TRACE 369, SLEEP
#   10 + 500 -> 879, END_JOB 909
# page 1 (there since 516: no wait) starts at 909; page 2's fetch 909 -> 1173
#   job 2 runs alone: START_JOB 939, dispatch 951, LOAD_PDI 1051: page 4 fetch -> 1310
#   page 4: START_JOB 1340, EOF 1370, dispatch 1382, READ_32 1447 (0), ADD 1457, WRITE_32_D
#     1512 (word = 1), SAVE_TIMESTAMPS 20 at 1512 -> 1532, END_JOB 1562: job 2 released
#   dispatch 1574, END_JOB 1604; job 3: START_JOB 1634, dispatch 1646, LOAD_PDI 7 again:
#     skipped after its cost, 1746, END_JOB 1776; EOF 1806
# page 2 (there since 1173) starts at 1806 (the last in-order page: no prefetch)
#   job 4: START_JOB 1836, dispatch 1848, LOAD_CORES 1948: page 3 fetch -> 2203
#   page 3: START_JOB 2233, EOF 2263, dispatch 2275, SAVE_TIMESTAMPS 30 at 2275 -> 2295,
#     END_JOB 2325; dispatch 2337, END_JOB 2367
#   job 5: START_JOB 2397, dispatch 2409, LOAD_LAST_PDI 2509: page 4 fetch -> 2768
#   page 4 again: START_JOB 2798, EOF 2828, dispatch 2840, READ_32 2905 (1), ADD 2915,
#     WRITE_32_D 2970 (word = 2), SAVE_TIMESTAMPS 20 at 2970 -> 2990, END_JOB 3020;
#     dispatch 3032, END_JOB 3062
#   job 6 (LOAD_CORES_CP does not run alone) START_JOB 3092 (slot 0), job 7 3122 (slot 1),
#     EOF 3152. Round-robin goes on after slot 0 (job 5 was picked last): job 7 first:
#     dispatch 3164, SAVE_TIMESTAMPS 2 at 3164 -> 3184, END_JOB 3214; job 6: dispatch 3226,
#     LOAD_CORES_CP 3326, SAVE_REGISTER 3391 (records 2), END_JOB 3421: halt at 3421.
# Page waits: 257 + (1310 - 1051) + (2203 - 1948) + (2768 - 2509) = 1030 (pages 1 and 2 came
# early: prefetched). 6 pages started, 3 loads (LOAD_PDI, LOAD_CORES, LOAD_LAST_PDI).
run pages -o spec=latest
[ $rc -eq 0 ] || no "pages: exit $rc: $(tail -3 "$T/pages.out")"
cycles pages 3421
has pages '^  pages: 6$'
has pages '^  loads: 3$'
has pages '^  page_wait_cycles: 1030$'
has pages '^  records: 6$'
debug pages 'continue\nassert stop halted\nassert cycle == 3421\ninfo records\n' -o spec=latest
for rec in 'page 0 offset 0x0018 SAVE_TIMESTAMPS id 1: cycle 329 ' 'page 4 offset 0x0034 SAVE_TIMESTAMPS id 20: cycle 1512 ' \
    'page 3 offset 0x0018 SAVE_TIMESTAMPS id 30: cycle 2275 ' 'page 4 offset 0x0034 SAVE_TIMESTAMPS id 20: cycle 2970 ' \
    'page 2 offset 0x0060 SAVE_TIMESTAMPS id 2: cycle 3164 ' 'page 2 offset 0x0048 SAVE_REGISTER id 66: value 2 '; do
    grep -q "^uc0 $rec" "$T/pages.dbg" || no "pages: no record '$rec': $(grep '^uc0 page' "$T/pages.dbg")"
done
# TRACE and SLEEP have no effect but their time. TRACE shares cost_trace (20) with
# SAVE_TIMESTAMPS: with cost_trace=0 the TRACE and the five SAVE_TIMESTAMPS on the path
# (ids 1, 20, 30, 20, 2) cost nothing: 3421 - 6 x 20 = 3301. SLEEP 1 us is 500 cycles at
# 500 MHz; with uc_mhz=1000 it is 1000: 3421 + 500 = 3921. Neither change makes a page wait
# for its fetch (page 1 is there at 516, page 2 at 1173 or earlier).
run pages -o spec=latest -o cost_trace=0
cycles pages 3301
run pages -o spec=latest -o uc_mhz=1000
cycles pages 3921

# ---- 5. preempt.asm: PREEMPT and START_COND_JOB_PREEMPT -----------------------------------
# Page 0: 3 jobs of 20 (START 8 + SAVE_TIMESTAMPS 8 or PREEMPT 8 + END_JOB 4) = 60: length
# 80, fetch 260. Pages 1 (restore_ctx) and 2 (save_ctx): 20: 40 -> 255.
# -o preempt=0: job 1 is skipped by the parser (no cost); job 2 runs alone: START_JOB 290,
#   dispatch 302, PREEMPT 402 (does nothing), END_JOB 432; START_JOB 3 462, EOF 492,
#   dispatch 504, SAVE_TIMESTAMPS 3 at 504 -> 524, END_JOB 554.
# -o preempt=1: START_COND_JOB_PREEMPT 290; job 2 waits for it: dispatch 302, SAVE_TIMESTAMPS
#   1 at 302 -> 322, END_JOB 352; START_JOB 2 382, dispatch 394, PREEMPT 494: save page fetch
#   -> 749; START_JOB 779, EOF 809, dispatch 821, SAVE_TIMESTAMPS 11 at 821 -> 841, END_JOB
#   871: restore page fetch -> 1126; START_JOB 1156, EOF 1186, dispatch 1198,
#   SAVE_TIMESTAMPS 12 at 1198 -> 1218, END_JOB 1248: job 2 released; dispatch 1260,
#   END_JOB 1290; START_JOB 3 1320, EOF 1350, dispatch 1362, SAVE_TIMESTAMPS 3 at 1362,
#   END_JOB 1412. Pages: 3 (one load: the restore page follows its save page).
run preempt -o spec=latest -o preempt=0
[ $rc -eq 0 ] || no "preempt=0: exit $rc: $(tail -3 "$T/preempt.out")"
cycles preempt 554
has preempt '^  records: 1$'
has preempt '^  loads: 0$'
debug preempt 'continue\nassert cycle == 554\ninfo records\n' -o spec=latest -o preempt=0
grep -q '^uc0 page 0 offset 0x.... SAVE_TIMESTAMPS id 3: cycle 504 ' "$T/preempt.dbg" || no "preempt=0 records: $(grep '^uc0' "$T/preempt.dbg")"
run preempt -o spec=latest -o preempt=1
[ $rc -eq 0 ] || no "preempt=1: exit $rc: $(tail -3 "$T/preempt.out")"
cycles preempt 1412
has preempt '^  pages: 3$'
has preempt '^  loads: 1$'
debug preempt 'continue\nassert cycle == 1412\ninfo records\n' -o spec=latest -o preempt=1
[ "$(grep '^uc0 page' "$T/preempt.dbg" | sed 's/.* id \([0-9]*\): cycle \([0-9]*\) .*/\1@\2/' | tr '\n' ' ')" = "1@302 11@821 12@1198 3@1362 " ] ||
    no "preempt=1 records: $(grep '^uc0 page' "$T/preempt.dbg")"

# ---- 6. ops.asm: uC-DMA opcodes, APPLY_OFFSET_57/PL, POLL_32, UC_DMA_MASK_POLL_EXT, REL_ACQ_SYNC
# Job: START_JOB 8, UC_DMA_WRITE_DES 8, UC_DMA_WRITE_DES_SYNC 4, WAIT_UC_DMA 4,
# APPLY_OFFSET_57 8, APPLY_OFFSET_PL 8, POLL_32 12, UC_DMA_MASK_POLL_EXT 20, REL_ACQ_SYNC 12,
# READ_32 8, END_JOB 4 = 96; EOF 4, filler 12; data: 2 BDs 32 + words 8 + 4 + shim_bd 36 +
# wts 40 = 120: length 16 + 96 + 4 + 12 + 120 = 248, fetch 250 + 31 = 281.
#   START_JOB 311, EOF 341, dispatch 353
#   UC_DMA_WRITE_DES 393: chain_a 1 BD, 2 words: 34 -> done 427; $r0 = 1
#   UC_DMA_WRITE_DES_SYNC 433: chain_b queued from 433 (engine free at 427): 32 -> 465; blocks
#   465: dispatch 477; WAIT_UC_DMA 517 (handle 1 done at 427: no wait)
#   APPLY_OFFSET_57 567, APPLY_OFFSET_PL 617 (time only in this model)
#   POLL_32 617 + 70 = 687 (0x11 there), UC_DMA_MASK_POLL_EXT 687 + 20 + 50 + 30 = 787
#   REL_ACQ_SYNC 787 + 20 + 50 + 50 = 907 (release: lock 0 = 1; acquire-equal 1 succeeds)
#   READ_32 972 ($g0 = 1), END_JOB 1002.
run ops -o spec=latest
[ $rc -eq 0 ] || no "ops: exit $rc: $(tail -3 "$T/ops.out")"
cycles ops 1002
has ops '^  ucdma_transfers: 2$'
has ops '^  ucdma_bytes: 12$'
has ops '^  poll_retries: 0$'
has ops 'stall ucdma 32,'
debug ops 'continue\nassert stop halted\nassert cycle == 1002\nthread 0.0\nassert $g0 == 1\nassert $r0 == 1\n' -o spec=latest
# APPLY_OFFSET_57 and APPLY_OFFSET_PL cost 50 each: with cost_patch=0 the run is 100 shorter
run ops -o spec=latest -o cost_patch=0
cycles ops 902
# the APPLY_OFFSET tables are data no uC-DMA descriptor reaches: the listing goes on with
# .long words where aiebu's Python disassembler stops ("Illegal state")
"$X" disasm "$T/ops.elf" >"$T/ops.dis" 2>&1 || no "ops: disasm exit $?: $(tail -2 "$T/ops.dis")"
grep -q '^; data at offset [0-9]* not reached through a uC-DMA descriptor$' "$T/ops.dis" &&
    grep -q 'APPLY_OFFSET_57	0x9C, 0x1, 0x0$' "$T/ops.dis" || no "ops: listing: $(grep -n 'APPLY\|not reached' "$T/ops.dis")"

# ---- 7. hangs: exit status 3 (deadlock) or 2 (fault) and the report line naming uc, page,
# offset, opcode and what it waits for; the cycle of the stop derived as above -----------
# hang NAME RC 'report line' CYCLE [options]
hang() {
    n=$1 want=$2 line=$3 cyc=$4
    shift 4
    "$X" run "$T/$n.elf" --quiet "$@" >"$T/$n.out" 2>&1
    rc=$?
    [ $rc -eq "$want" ] || no "$n: exit $rc, expected $want: $(cat "$T/$n.out")"
    grep -qxF -- "$line" "$T/$n.out" || no "$n: no line '$line' in: $(cat "$T/$n.out")"
    grep -q "(cycle $cyc)" "$T/$n.out" || no "$n: stop not at cycle $cyc: $(grep stopped "$T/$n.out")"
}
# no_token: jobs 8 + 12 + 12 + 8 + 4 = 44: length 64, fetch 258; START_JOB 288, EOF 318,
# dispatch 330, WRITE_32 385 (BD 0: 64 words), WRITE_32 440 (task: 8 + 26 -> 474, no token),
# WAIT_TCTS blocks at 460; at 474 the task ends and nothing is left: deadlock at 474.
hang hang_no_token 3 'uc0: page 0 offset 0x30: WAIT_TCTS TILE_0_1, MM2S_0, 0x1: job 1 waits for TCTs from TILE_0_1 MM2S_0: expected 1, received 0' 474
grep -q 'stopped: deadlock in uc0 thread 0 at pc 0x30 ' "$T/hang_no_token.out" || no "no_token stop: $(grep stopped "$T/hang_no_token.out")"
# the opcode watchdog: WAIT_TCTS began at 440, so with opcode_timeout=30 it fires at 470,
# before the deadlock (474) would be found
hang hang_no_token 3 'uc0: page 0 offset 0x30: WAIT_TCTS TILE_0_1, MM2S_0, 0x1: job 1 waits for TCTs from TILE_0_1 MM2S_0: expected 1, received 0' 470 -o opcode_timeout=30
grep -q 'opcode timeout (30 cycles, -o opcode_timeout)' "$T/hang_no_token.out" || no "watchdog: $(cat "$T/hang_no_token.out")"
# few_tokens: as no_token with the token bit: the token arrives at 474 + 30 = 504 (1 of 2)
hang hang_few_tokens 3 'uc0: page 0 offset 0x30: WAIT_TCTS TILE_0_1, MM2S_0, 0x2: job 1 waits for TCTs from TILE_0_1 MM2S_0: expected 2, received 1' 504
# local_barrier: jobs 16 + 20: length 56, fetch 257; START_JOB 287, 317, EOF 347; job 1:
# dispatch 359, $lb2 384 (1 of 3); job 2: dispatch 396, NOP 406, $lb2 431 (2 of 3): stuck
hang hang_local_barrier 3 'uc0: page 0 offset 0x18: LOCAL_BARRIER $lb2, 0x3: job 1 waits for local barrier $lb2: 2 of 3 participants arrived (jobs 1 2), 1 missing; page 0 offset 0x2c: LOCAL_BARRIER $lb2, 0x3: job 2 waits for local barrier $lb2: 2 of 3 participants arrived (jobs 1 2), 1 missing' 431
# remote_barrier: uC 0 length 40 (fetch 255), START_JOB 285, EOF 315, dispatch 327, $rb0 352;
# uC 1 length 36 (fetch 250 + ceil(4.5) = 255), 285, 315, dispatch 327, NOP 337, END_JOB 367
hang hang_remote_barrier 3 'uc0: page 0 offset 0x18: REMOTE_BARRIER $rb0, 0x3: job 1 waits for remote barrier $rb0 (party_mask 0x3): arrived uC 0; missing uC 1' 367
grep -qx 'uc1: done at cycle 367' "$T/hang_remote_barrier.out" || no "remote_barrier: uc1 line: $(cat "$T/hang_remote_barrier.out")"
# poll: length 44 (fetch 256), START_JOB 286, EOF 316, dispatch 328, POLL_32 fails at 398;
# the next attempt is due at max(398, 328 + 50) = 398 and nothing can change the word
hang hang_poll 3 'uc0: page 0 offset 0x18: POLL_32 0x100000, 0x1: job 1 waits for poll of 0x00100000: (value & 0xFFFFFFFF) == 0x1, last read 0x0; next attempt at cycle 398' 398
# deferred: length 52 (fetch 257), START_JOB 287, START_JOB_DEFERRED 317, EOF 347, job 1:
# dispatch 359, NOP 369, END_JOB 399; job 2 never launched
hang hang_deferred 3 'uc0: page 0 offset 0x28: NOP: job 2 waits for deferred: waits for LAUNCH_JOB 2' 399
# ucdma_handle: length 44 (fetch 256), START_JOB 286, EOF 316, dispatch 328, MOV 338,
# WAIT_UC_DMA 378: a fault (exit 2), not a wait
hang hang_ucdma_handle 2 'xpusim: stopped: fault in uc0 thread 0 at pc 0x20 (cycle 378): uc0 page 0 offset 0x20 (job 1): WAIT_UC_DMA on handle 5, which no UC_DMA_WRITE_DES returned' 378
# dropped: jobs 8 + 7 x 12 + 8 + 4 = 104: length 124, fetch 266; START_JOB 296, EOF 326,
# dispatch 338, BD write 393, pushes at 448 (starts: 448 + 8 + 400 -> 856), 503, 558, 613,
# 668 (4 queued), 723 (dropped: queue full); WAIT_TCTS blocks at 743; tasks end at 856,
# 1264, 1672, 2080, 2488; the fifth token arrives at 2518: 5 of 6, deadlock at 2518
hang hang_dropped 3 'uc0: page 0 offset 0x6c: WAIT_TCTS TILE_0_1, MM2S_0, 0x6: job 1 waits for TCTs from TILE_0_1 MM2S_0: expected 6, received 5' 2518
grep -q 'uc0 cycle 723: address 0x001A0634: push to full task queue of TILE_0_1 MM2S_0: dropped' "$T/hang_dropped.out" ||
    no "dropped: warning: $(cat "$T/hang_dropped.out")"
"$X" run "$T/hang_dropped.elf" >"$T/d.out" 2>&1
grep -q '^  dropped_tasks: 1$' "$T/d.out" || no "dropped: $(grep dropped_tasks "$T/d.out")"

[ $fail -eq 0 ] && echo ok
exit $fail
