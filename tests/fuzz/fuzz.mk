# tests/fuzz/fuzz.mk: libFuzzer harnesses (included by the Makefile). Every
# tests/fuzz/fuzz_NAME.c is one harness, built with clang under ASan + UBSan into
# build/fuzz/fuzz_NAME against the library compiled the same way (-fsanitize=fuzzer-no-link).
#   make fuzz                 each harness for FUZZ_SECONDS (default 60) from its corpus
#                             (tests/fuzz/corpus/NAME; new inputs go to build/fuzz/corpus/NAME)
#   make fuzz-corpus          each harness once over its committed corpus (libFuzzer build)
#   make fuzz-replay          the same inputs through tests/fuzz/replay.c, linked against
#                             $(BUILD)'s library: `make test` runs it on its ASan+UBSan build
#                             rather than compiling everything a third time for libFuzzer
#   make fuzz FUZZ_ONLY=elf   just some harnesses
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror -pthread -MMD -MP \
               -DXPUSIM_FUZZ=1 $(FUZZ_SAN) -I. -I$(FUZZ_BUILD) $(ELF_CFLAGS)
FUZZ_HARNESS_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_HARNESS_SRC))
FUZZ_ONLY ?= $(FUZZ_NAMES)
FUZZ_BIN := $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_ONLY))
# the library as the normal build has it, without SDL (view.c then builds its stubs)
FUZZ_LIB_SRC := $(LIB_SRC)
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_LIB := $(FUZZ_BUILD)/libxpusim-fuzz.a

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-replay

$(FUZZ_BUILD)/isa_list.h: $(BUILD)/isa_list.h
	@mkdir -p $(dir $@)
	@cp $< $@

$(FUZZ_BUILD)/obj/%.o: %.c $(FUZZ_BUILD)/isa_list.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(DW_LIBS) $(ELF_LIBS) $(RL_LIBS) $(JSON_LIBS) -lm -pthread

fuzz-build: $(FUZZ_BIN)

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@sh tests/fuzz/run.sh long $(FUZZ_SECONDS) $(FUZZ_ONLY)

fuzz-corpus: fuzz-build
	@sh tests/fuzz/run.sh corpus 0 $(FUZZ_ONLY)

# Replay drivers: harness + replay.c + this build's library, with this build's flags.
REPLAY_BIN := $(addprefix $(BUILD)/fuzz-replay/replay_,$(FUZZ_ONLY))
$(BUILD)/fuzz-replay/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_common.h $(LIBXPU)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< tests/fuzz/replay.c $(LIBXPU) $(LIBS)

fuzz-replay: $(REPLAY_BIN)
	@REPLAY_DIR=$(BUILD)/fuzz-replay sh tests/fuzz/run.sh replay 0 $(FUZZ_ONLY)

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
