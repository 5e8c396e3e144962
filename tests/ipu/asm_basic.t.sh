#!/bin/sh
# tests/ipu/asm_basic.t.sh: the IPU assembler (isa/ipu/asm*.c) on our own small sources:
# worker and supervisor code, a bundle, an rpt body, relocations, and the errors llvm-mc
# gives for invalid bundles and rpt bodies. Every expected word below was checked against
# the public LLVM MC vectors (graphcore/llvm-project-fork llvm/test/MC/{Disassembler/}Colossus
# bundle-disassemble.txt, reg-pairs.txt, reg-quads.s) and the SDK-built IPU1 bootloader
# listing (Saghetti0/graphcore-ipu-research), as named in tests/ipu/asm/basic.S; the bundle
# words are those instructions with bit 31, as bundle-disassemble.txt shows both halves.
# rpt and fnop have no MC vector: their words are the table's (marked so in basic.S).
R=${XPUSIM_ROOT:-.}; B=${XPUSIM_BUILD:-build}; X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XPUSIM_ROOT="$R"
asm() { out=$1; shift; "$X" asm --isa ipu "$@" -o "$out"; }
fail=0
asm "$T/b.o" "$R/tests/ipu/asm/basic.S" || exit 1
# the words of a section, one per line, via readelf's hex dump
words() { readelf -x "$2" "$1" | awk '/^  0x/ { for (i = 2; i <= 5; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) == 8) print $i }' |
          sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'; }
got=$(words "$T/b.o" .text.worker | tr '\n' ' ')
want="44203011 5f20f000 c4203011 d8e0e003 56442800 4350a000 cd000885 9ad00000 42079000 13300000 19000000 43f04000 "
[ "$got" = "$want" ] && echo "ok worker words" || { echo "FAIL worker: got  $got"; echo "               want $want"; fail=1; }
got=$(words "$T/b.o" .text.sup | tr '\n' ' ')
want="14000000 41000003 41800003 1500f000 43a00000 "
[ "$got" = "$want" ] && echo "ok supervisor words" || { echo "FAIL supervisor: got $got want $want"; fail=1; }
# relocations: type numbers as the Colossus ELF writer uses them
rel=$(readelf -rW "$T/b.o" | awk '/^[0-9a-f]+ +[0-9a-f]+ /{print $1, substr($2, length($2) - 1)}' | tr '\n' ' ')
echo "$rel" | grep -q "00000024 08" && echo "ok R_COLOSSUS_19_S2" || { echo "FAIL 19_S2: $rel"; fail=1; }
echo "$rel" | grep -q "00000028 03" && echo "ok R_COLOSSUS_20" || { echo "FAIL 20: $rel"; fail=1; }
echo "$rel" | grep -q "00000000 04" && echo "ok R_COLOSSUS_32" || { echo "FAIL 32: $rel"; fail=1; }
readelf -h "$T/b.o" | grep -q "REL (Relocatable" && readelf -h "$T/b.o" | grep -q "Machine:.*Graphcore" &&
    echo "ok ELF32 ET_REL EM 248" || { echo "FAIL header"; fail=1; }
# a linked single-tile image: relocations resolved at the ipu2 tile memory base 0x4c000
printf '.worker\nwk: brz $m3, sv\n setzi $m0, sv\n exitz $m15\n.section .text.sup,"ax"\n.supervisor\nsv: run $m0, $m0, wk\n' > "$T/l.S"
asm "$T/l.elf" "$T/l.S" || exit 1
got=$(words "$T/l.elf" .text | tr '\n' ' ')
[ "$got" = "13313003 1904c00c 43f04000 " ] && echo "ok linked words" || { echo "FAIL linked: $got"; fail=1; }
got=$(words "$T/l.elf" .text.sup | tr '\n' ' ')
[ "$got" = "14000000 " ] && echo "ok run offset from the tile base" || { echo "FAIL run: $got"; fail=1; }
# errors llvm-mc gives (assemble-invalid-bundles.s, rpt_invalid_sequences.s)
err() { printf "$2" > "$T/e.S"; if asm "$T/e.o" "$T/e.S" 2>"$T/e.txt"; then echo "FAIL $1: assembled"; fail=1;
        elif grep -q "$3" "$T/e.txt"; then echo "ok $1"; else echo "FAIL $1: $(cat "$T/e.txt")"; fail=1; fi; }
err same_reg '{ ld32 $a0, $m0, $m15, 0 ; f32add $a0, $a1, $a2 }\n' "cannot write to the same operand"
err pair_clash '{ ld64 $a0:1, $m0, $m15, 0 ; f32add $a1, $a2, $a3 }\n' "cannot write to the same operand"
err not_coissue '{ exitz $m0 ; fnop }\n' "cannot be dual issued"
err lanes '{ fnop ; add $m0, $m1, $m2 }\n' "invalid instruction in bundle"
err rpt_misaligned '.align 8\nrpt $m0, 0\n{ nop ; fnop }\n' "rpt instruction is misaligned"
err rpt_single '.align 8\nnop\nrpt $m0, 0\nnop\n' "only contain instruction bundles"
err rpt_control '.align 8\nnop\nrpt $m0, 0\n{ bri 0x40000 ; fnop }\n' "cannot contain control"
err worker_only '.supervisor\nexitz $m0\n' "not available in supervisor"
err range 'add $m0, $m1, 70000\n' "out of range"
exit $fail
