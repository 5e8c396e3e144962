// tests/nyuzi/progs/common_tail.h: the pass/fail reporting code shared by the programs.
pass:           print_str pass_msg
                b halt
report_fail:    print_str fail_msg
                // print the line number in decimal (s28)
                li s24, 10000
3:              move s23, 0
4:              cmpge_u s22, s28, s24
                bz s22, 5f
                sub_i s28, s28, s24
                add_i s23, s23, 1
                b 4b
5:              add_i s23, s23, '0'
                li s25, 0xffff0048
                store_32 s23, (s25)
                // divide s24 by 10 with a loop (no divide instruction)
                move s21, 0
6:              cmpge_u s22, s24, 10
                bz s22, 7f
                sub_i s24, s24, 10
                add_i s21, s21, 1
                b 6b
7:              move s24, s21
                bnz s24, 3b
halt:           li s0, 0xffffffff
                setcr s0, 20
8:              b 8b
pass_msg:       .asciz "PASS\n"
fail_msg:       .asciz "FAIL line "
                .align 4
