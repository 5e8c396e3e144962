# isa/nyuzi/isa.mk: Nyuzi's make rules (included by the top-level Makefile).
# The cycle model steps every cycle; -O3 gains it ~10% (docs/performance.md). An OPT given on
# the command line (the sanitizer pass) still wins.
$(BUILD)/obj/isa/nyuzi/pipeline.o $(BUILD)/obj/isa/nyuzi/exec.o $(BUILD)/obj/isa/nyuzi/timing.o $(BUILD)/obj/isa/nyuzi/mem_bus.o \
  $(BUILD)/obj/isa/nyuzi/bus_log.o $(BUILD)/obj/isa/nyuzi/bus_retime.o $(BUILD)/obj/isa/nyuzi/l2_fill.o: OPT = -O3
# pipeline.o (two inline copies of every instruction body) compiles for about a minute at -O3:
# the top-level Makefile starts it first.
SLOW_OBJ += $(BUILD)/obj/isa/nyuzi/pipeline.o
# the memoized periods' replay (memo.c: the instruction bodies inline once more) and key
$(BUILD)/obj/isa/nyuzi/memo.o $(BUILD)/obj/isa/nyuzi/memo_key.o: OPT = -O3
