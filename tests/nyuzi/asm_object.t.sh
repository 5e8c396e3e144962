#!/bin/sh
# tests/nyuzi/asm_object.t.sh: relocatable output (`xpusim asm -c`), the operand modifiers
# hi()/lo(), and what is refused.
# The first program is LLVM's own test test/MC/Nyuzi/elf-reloc-static.s (NyuziToolchain),
# statement for statement. Its CHECK-RELOC lines give the relocations of the undefined
# symbols: 0x1c BRANCH25 memcpy, 0x20 BRANCH20 memset, 0x24 HI19 + 0x28 IMM_LO13 baz (lea of
# a symbol is movehi hi() + or lo()), 0x2c HI19 bam1, 0x30 IMM_LO13 bam1, 0x34 ABS32 ioctl;
# the type numbers are ELFRelocs/Nyuzi.def's (1 ABS32, 2 BRANCH20, 3 BRANCH25, 4 HI19,
# 5 IMM_LO13). Branches to labels of the same section are resolved (no relocation); the
# absolute addresses of local labels (lea bah, .long buz, hi/lo(bim)) are relocations against
# the section symbol with the label's offset as addend, the ELF rule llvm-mc and GNU as
# follow for local symbols (the LLVM test only checks that no relocation names them).
# Words: LLVM's CHECK-ENCODE bytes with the fixup bits ('A') zero: b 0xf6000000, bz s0
# 0xf2000000, movehi s3 0x4f000060, or s3,s3 0x00000063, movehi s1 0x4f000020, or s1,s1
# 0x00000021, movehi s0 0x4f000000, or s0,s0 0x00000000; .long: 0.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$T/static.s" <<'A'
foo: b foo
fum: bz s0, fum
bah: lea s3, bah
buz: .long buz
bim: movehi s0, hi(bim)
     or s0, s0, lo(bim)
b memcpy
bz s0, memset
lea s1, baz
movehi s3, hi(bam1)
or s0, s0, lo(bam1)
.long ioctl
A
"$X" asm --isa nyuzi -c "$T/static.s" -o "$T/static.o" 2>"$T/err" || fail "asm -c: $(cat "$T/err")"
command -v readelf >/dev/null || fail "readelf (binutils) not found"
# one line per relocation: offset type symbol(+addend); a section symbol has no name
relocs() {
    readelf -W -r "$1" | awk '$1 ~ /^[0-9a-f]+$/ && NF >= 6 {
        name = ""; add = $NF
        for (i = 5; i < NF; i++) if ($(i + 1) == "+" || $(i + 1) == "-") { if ($i !~ /^[0-9a-f]+$/ || i > 5) name = $i; if ($(i+1) == "-") add = "-" add }
        printf "%s %d %s+%s\n", $1, ("0x" substr($2, length($2) - 1)) + 0, name, add }'
}
got=$(relocs "$T/static.o" | tr '\n' ';')
want="00000008 4 +8;0000000c 5 +8;00000010 1 +10;00000014 4 +14;00000018 5 +14;0000001c 3 memcpy+0;00000020 2 memset+0;00000024 4 baz+0;00000028 5 baz+0;0000002c 4 bam1+0;00000030 5 bam1+0;00000034 1 ioctl+0;"
[ "$got" = "$want" ] || fail "relocations: got '$got', want '$want'"
# the section-symbol relocations name section 1 (.text): symbol index 1 is its STT_SECTION symbol
readelf -W -s "$T/static.o" | grep -Eq '^ +1: 00000000 +0 SECTION LOCAL +DEFAULT +1 *$' || fail "no .text section symbol at index 1"
for s in memcpy memset baz bam1 ioctl; do
    readelf -W -s "$T/static.o" | grep -Eq "NOTYPE +GLOBAL +DEFAULT +UND $s\$" || fail "$s is not an undefined global"
done
for s in foo:00000000 bim:00000014; do
    readelf -W -s "$T/static.o" | grep -Eq "${s#*:} .*LOCAL +DEFAULT +1 ${s%%:*}\$" || fail "label ${s%%:*} not local in .text at ${s#*:}"
done
readelf -W -h "$T/static.o" | grep -q 'REL (Relocatable file)' || fail "not ET_REL"
words=$(readelf -W -x .text "$T/static.o" | awk '/^  0x/ {for (i = 2; i <= 5; i++) if (length($i) == 8 && $i ~ /^[0-9a-f]+$/) printf "%s ", $i}')
want_words="000000f6 000000f2 6000004f 63000000 00000000 0000004f 00000000 000000f6 000000f2 2000004f 21000000 6000004f 00000000 00000000 "
[ "$words" = "$want_words" ] || fail ".text bytes: got '$words', want '$want_words'"
echo "ok: llvm-mc's elf-reloc-static.s: 12 relocations, symbols and words as LLVM's"

# .data: an address in another section is ABS32 against it; a difference inside one
# section is a constant (no relocation): d2 - d1 = 4.
printf '_start: nop\n\t.data\nd1: .long _start + 4\nd2: .long d2 - d1\n' > "$T/data.s"
"$X" asm --isa nyuzi -c "$T/data.s" -o "$T/data.o" 2>"$T/err" || fail "asm -c data: $(cat "$T/err")"
got=$(relocs "$T/data.o" | tr '\n' ';')
[ "$got" = "00000000 1 +4;" ] || fail "data relocations: got '$got', want '00000000 1 +4;'"
readelf -W -r "$T/data.o" | grep -q "'.rela.data'" || fail "the relocation is not in .rela.data"
readelf -W -x .data "$T/data.o" | grep -q ' 00000000 04000000 ' || fail ".data words: $(readelf -W -x .data "$T/data.o")"
echo "ok: .rela.data, differences in one section are constants"

# hi()/lo() in a linked program: big = 0x12345678, hi = 0x12345678 >> 13 = 0x91a2,
# lo = 0x1678; .data starts at 0x1040 (text 0x1000, 64-byte aligned). The program builds
# big and the address of out with them, stores big there, and copies it with li (movehi+or).
cat > "$T/hilo.s" <<'A'
    .set big, 0x12345678
_start:
    movehi s1, hi(big)
    or s1, s1, lo(big)
    movehi s2, hi(out)
    or s2, s2, lo(out)
    store_32 s1, (s2)
    li s3, out
    load_32 s4, (s3)
    store_32 s4, 4(s3)
1:  b 1b
    .data
out: .long 0, 0
A
"$X" asm --isa nyuzi "$T/hilo.s" -o "$T/hilo.elf" 2>"$T/err" || fail "asm hilo: $(cat "$T/err")"
"$X" disasm "$T/hilo.elf" | grep -q 'movehi s1, 37282' || fail "hi(big) is not 37282 (0x91a2)"
"$X" disasm "$T/hilo.elf" | grep -q 'or s1, s1, 5752' || fail "lo(big) is not 5752 (0x1678)"
got=$("$X" run "$T/hilo.elf" --quiet --max-cycles 300 --get out:8 2>/dev/null | tr -s ' \n' ' ')
case "$got" in *"78 56 34 12 78 56 34 12"*) ;; *) fail "out = '$got'";; esac
echo "ok: hi()/lo() linked"

# refused, each with its reason
check_err() { # SOURCE-TEXT MESSAGE [asm flags]
    printf "$1" > "$T/e.s"
    shift; want=$1; shift
    if "$X" asm --isa nyuzi "$@" "$T/e.s" -o "$T/e.o" 2>"$T/err"; then fail "accepted: $(cat "$T/e.s")"; fi
    grep -qF "$want" "$T/err" || fail "message '$(cat "$T/err")', want '$want'"
}
check_err 'add_i s0, s0, ext\n' "'ext' is not a constant (it needs a relocation): use lo(...) in an immediate" -c
check_err 'movehi s0, ext\n' "use hi(...) in movehi" -c
check_err 'load_32 s0, ext(s1)\n' "only a branch, movehi hi(...) or an immediate lo(...) can refer to it" -c
check_err '.data\n.short ext\n' "'ext' needs a relocation, and there is none for a 2-byte value" -c
check_err '.zero ext\n' "'ext' must be a constant known at this point" -c
check_err 'a: nop\n.data\nd: .long a + d\n' "relocatable values cannot be combined at '+ d'" -c
check_err 'b ext\n' "undefined symbol in 'ext'"
echo "ok: refusals"
# an object file is not a program; -c is the Nyuzi assembler's only
"$X" asm --isa nyuzi -c "$T/static.s" -o "$T/static.o" 2>/dev/null
if "$X" run "$T/static.o" --max-cycles 10 2>"$T/err"; then fail "ran an object file"; fi
grep -q 'a relocatable object file (ELF type ET_REL), not a program' "$T/err" || fail "run: $(cat "$T/err")"
printf 'nop\n' > "$T/d.s"
if "$X" isas | grep -q '^dpu'; then # a build of some ISAs (ISAS=nyuzi) has no other assembler
    if "$X" asm --isa dpu -c "$T/d.s" -o "$T/d.o" 2>"$T/err"; then fail "dpu accepted -c"; fi
    grep -q "unknown assembler option 'object' for ISA dpu" "$T/err" || fail "dpu -c: $(cat "$T/err")"
fi
echo "ok: run refuses ET_REL; -c elsewhere is an unknown option"
