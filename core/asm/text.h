/* core/asm/text.h: the lexical layer every assembler shares: comment stripping with a
 * per-ISA comment syntax, trimming, the first word of a statement, operand lists split at
 * top-level commas (not inside parentheses or strings), identifiers, and string literals
 * with GNU as escapes. Functions work in place on a line buffer the caller owns; nothing
 * here allocates. Part of the shared assembler framework (core/asm/). */
#ifndef XPUSIM_ASM_TEXT_H
#define XPUSIM_ASM_TEXT_H
#include <stddef.h>

typedef struct asm_comment_syntax {
    const char *anywhere[3];    /* markers that start a comment anywhere outside a string */
    const char *after_blank[3]; /* markers that do only at the line start or after a blank */
} asm_comment_syntax;

/* Cut s at its first comment (outside "strings"). */
void asm_strip_comment(char *s, const asm_comment_syntax *syn);
/* Skip leading and drop trailing white space; returns the first non-blank character. */
char *asm_trim(char *s);

int asm_is_ident_start(int c);   /* [A-Za-z_.$] */
int asm_is_ident_char(int c);    /* [A-Za-z0-9_.$] */
/* Length of the identifier at s (0 if none starts there). */
size_t asm_ident_len(const char *s);

/* Copy the first blank-delimited word of s to word (cut to cap-1 characters); returns the
 * rest of the line after the word and its following blanks. */
char *asm_first_word(char *s, char *word, size_t cap);

/* A label or an assignment at the start of *p (after blanks), as LLVM MC reads them:
 * `NAME:` (blanks before the colon allowed; NAME may be digits, a numeric local label) gives
 * 1, NAME cut out in place at *name and *p just past the colon; `NAME = EXPR` gives 2 with
 * *p at EXPR; 0: neither (nothing changed); -1: the name is longer than ASM_MAX_IDENT. */
int asm_take_label(char **p, char **name);

/* Split s in place at commas outside parentheses and "strings"; each operand is trimmed.
 * Stores at most max pointers and returns how many operands there are (may exceed max:
 * the caller reports "too many"). An empty s has 0 operands; "a," has two, the second empty. */
int asm_split_operands(char *s, char **ops, int max);

/* Directives that describe the source for debuggers and linkers but put nothing in the image
 * (.file .loc .type .ident .cfi_* .addrsig* .hidden .protected .internal .extern .end). */
int asm_is_annotation(const char *directive);

/* How many operands asm_split_operands would find in s (s is not changed). */
int asm_count_operands(const char *s);

/* One or more comma-separated string literals at s ("a", "b"), escapes as in GNU as (\n \t
 * \r \b \f \\ \" \NNN octal, \xHH...). The bytes go to out (up to cap; *len counts all of
 * them, so cap 0 measures); with nul_each a 0 byte follows each string (.asciz). 0 ok, -1
 * with a message in err (no opening quote, an unterminated string, text after a string). */
int asm_string_list(const char *s, int nul_each, char *out, size_t cap, size_t *len, char *err, size_t errlen);

#endif
