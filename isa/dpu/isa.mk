# isa/dpu/isa.mk: the DPU's make rules (included by the top-level Makefile when dpu is built).
# libxpusim-dpu, the UPMEM SDK host API on the simulator (isa/dpu/host/, docs/isa/dpu.md
# "Host API library"): `make` builds $(BUILD)/libxpusim-dpu.a and $(BUILD)/xpusim-dpu.pc
# (usable from the build tree: PKG_CONFIG_PATH=$(BUILD)); `make install` installs the
# library, its headers and an xpusim-dpu.pc for PREFIX. The host objects also go into
# libxpusim.a, so that `xpusim run SESSION.dpuhost` runs host sessions through the same code.
DPU_HOST_SRC := $(wildcard isa/dpu/host/*.c)
DPU_HOST_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(DPU_HOST_SRC))
LIB_SRC += $(DPU_HOST_SRC)
LIB_OBJ += $(DPU_HOST_OBJ)
# the simulator without its frontends (readline, SDL, jansson): the core, the loaders, the
# ISAs being built (the core's register lookup goes through the registry) and the host API
DPU_LIB_OBJ := $(filter-out $(BUILD)/obj/frontends/%,$(LIB_OBJ))
DPU_LIB := $(BUILD)/libxpusim-dpu.a
DPU_PC := $(BUILD)/xpusim-dpu.pc
DPU_HOST_HEADERS := dpu.h dpu_error.h dpu_types.h dpu_log.h xpusim_dpu.h
DPU_PC_LIBS = -lxpusim-dpu $(ELF_LIBS) -lm -pthread $(LDSAN)

all check: $(DPU_LIB) $(DPU_PC)

$(DPU_LIB): $(DPU_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# the build tree's .pc points at the sources and the build directory
$(DPU_PC): isa/dpu/isa.mk
	@mkdir -p $(dir $@)
	@printf 'Name: xpusim-dpu\nDescription: UPMEM SDK host API on the xpusim DPU simulator\nVersion: 1.0\nCflags: -I%s\nLibs: -L%s %s\n' \
	    "$(abspath isa/dpu/host)" "$(abspath $(BUILD))" "$(DPU_PC_LIBS)" > $@

.PHONY: install-dpu-host
install: install-dpu-host
install-dpu-host: $(DPU_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/xpusim-dpu
	install -m 644 $(DPU_LIB) $(DESTDIR)$(PREFIX)/lib/libxpusim-dpu.a
	install -m 644 $(addprefix isa/dpu/host/,$(DPU_HOST_HEADERS)) $(DESTDIR)$(PREFIX)/include/xpusim-dpu/
	printf 'prefix=%s\nName: xpusim-dpu\nDescription: UPMEM SDK host API on the xpusim DPU simulator\nVersion: 1.0\nCflags: -I$${prefix}/include/xpusim-dpu\nLibs: -L$${prefix}/lib %s\n' \
	    "$(PREFIX)" "$(DPU_PC_LIBS)" > $(DESTDIR)$(PREFIX)/lib/pkgconfig/xpusim-dpu.pc
