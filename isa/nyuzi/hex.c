/* isa/nyuzi/hex.c: the elf2hex / $readmemh text image used by the reference emulator and
 * the Verilator testbench: whitespace-separated 32-bit hex tokens, each the four memory
 * bytes in order (text "000400f6" is the word 0xF6000400 in little-endian memory),
 * "@hhhhhhhh" sets the next *word* address, and // and block comments are skipped.
 * Errors name the line and what was expected. */
#include <ctype.h>
#include <string.h>
#include "nyuzi.h"

int nyz_hex_load(const uint8_t *text, size_t len, uint8_t *mem, uint32_t memsize,
                 uint32_t *top, char *err, size_t errlen)
{
    size_t i = 0;
    unsigned line = 1;
    uint64_t word = 0;
    *top = 0;
    while (i < len) {
        int ch = text[i];
        if (ch == '\n') {
            line++;
            i++;
        } else if (isspace(ch)) {
            i++;
        } else if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/')) {
                if (text[i] == '\n')
                    line++;
                i++;
            }
            if (i + 1 >= len) {
                snprintf(err, errlen, "%u: unterminated /* comment", line);
                return -1;
            }
            i += 2;
        } else if (ch == '@' || isxdigit(ch)) {
            int at = ch == '@';
            if (at)
                i++;
            uint64_t v = 0;
            int nd = 0;
            while (i < len && isxdigit(text[i])) {
                int c = tolower(text[i]);
                v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
                if (++nd > 8) {
                    snprintf(err, errlen, "%u: hex number longer than 8 digits", line);
                    return -1;
                }
                i++;
            }
            if (nd == 0 || (i < len && !isspace(text[i]) && text[i] != '/')) {
                snprintf(err, errlen, "%u: expected a hexadecimal word or @address, found '%c'", line,
                         i < len ? text[i] : '?');
                return -1;
            }
            if (at) {
                word = v;
                continue;
            }
            if ((word + 1) * 4 > memsize) {
                snprintf(err, errlen, "%u: word address 0x%llx is beyond memory (0x%x bytes)", line,
                         (unsigned long long)word, memsize);
                return -1;
            }
            mem_st32le(mem + word * 4, __builtin_bswap32((uint32_t)v));
            word++;
            if (word * 4 > *top)
                *top = (uint32_t)(word * 4);
        } else {
            snprintf(err, errlen, "%u: unexpected character '%c' (expected hex words, @address or comments)",
                     line, ch);
            return -1;
        }
    }
    return 0;
}
