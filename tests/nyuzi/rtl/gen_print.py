# tests/nyuzi/rtl/gen_print.py: the end of every micro-benchmark gen.py and gen_mem.py write.
# Each thread waits for its turn (the word `turn` equal to its rank in s25), prints
# "R:XXXXXXXX XXXXXXXX\n" (rank, then the first and second pass's cycle deltas in hex) on the
# serial port and passes the turn on. Written once, so both generators time the same print
# code; the text must stay byte for byte what the RTL ran (programs*.sha256 check it).


def _hex_digits(label):
    # s6 counts the eight digits of s12, most significant first, to the serial port at s5
    return '''%s:\tshr s4, s12, 28
\tcmplt_u s7, s4, 10
\tbz s7, 3f
\tadd_i s4, s4, 48
\tb 4f
3:\tadd_i s4, s4, 87
4:\tstore_32 s4, (s5)
\tshl s12, s12, 4
\tsub_i s6, s6, 1
\tbnz s6, %sb
''' % (label, label)


def print_turn(first):
    """Wait for the turn, print the rank, the register `first` (the first pass's delta) and s12
    (the second pass's), then give the turn to rank + 1."""
    return ('''\tlea s2, turn
1:\tload_32 s3, (s2)
\tcmpeq_i s3, s3, s25
\tbz s3, 1b
\tli s5, 0xffff0048
\tadd_i s4, s25, 48
\tstore_32 s4, (s5)
\tmove s4, 58
\tstore_32 s4, (s5)
\tmove s6, 8
\tmove s15, s12
\tmove s12, %s
''' % first + _hex_digits('2') + '''\tmove s4, 32
\tstore_32 s4, (s5)
\tmove s12, s15
\tmove s6, 8
''' + _hex_digits('6') + '''\tmove s4, 10
\tstore_32 s4, (s5)
\tadd_i s3, s25, 1
\tstore_32 s3, (s2)
''')
