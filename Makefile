# SPDX-License-Identifier: GPL-2.0
#
# cpurng top-level Makefile.  Kernel code builds out of tree against Debian's
# linux-headers; everything else is host or guest userspace.
#
#   make              release modules + userspace programs
#   make run          build, boot a VM, show the modules working
#   make shell        same VM, interactive shell instead of the demo
#   make check        host unit tests + VM test suites (installs deps)
#   make check-debug  the VM suites on our own debug kernel, real fips=1
#                     (GROUP="a b" for some groups only)
#   make bench        benchmarks in a VM
#   make lint         checkpatch, sparse, kernel-doc
#   make deps         install missing Debian packages
#   make fresh-root-check
#                     make run on a fresh debootstrap root, from nothing
#   make package-check
#                     the Debian packages installed and booted on a fresh
#                     root, then purged
#   make install / uninstall / dkms-install / dkms-uninstall / deb
#                     on a real machine (scripts/install.mk)
#
# Every target above but the plain "make" installs the packages it needs
# first (DEPS=<script> replaces scripts/deps.sh).
# Debian's kernels, by the package they come from (scripts/debian-kernels.sh):
# 6.1 and 6.12 are Debian 12's, 13, 13-cloud and 13-rt Debian 13's, and
# 13-bpo, 13-bpo-cloud and 13-bpo-rt the newest of trixie-backports.
# KERNEL=<label> picks the one a target builds for and boots (default: the
# host release's default kernel, 6.1 on Debian 12 and 13 on Debian 13), and
# every target prints it; make check and make bench run on the two
# releases' default kernels, 6.1 and 13, unless KERNEL= is given, and make
# check-kernels on the others.  Each is built in a cached build root of
# its release, with that release's compiler, and boots from its unpacked
# package: the host installs no kernel package and its /boot is never
# touched.
# KDIR=<headers or kernel tree> overrides the headers of KERNEL; KIMAGE and
# KMODDIR name the kernel the VM boots and its module tree.

SRC := $(CURDIR)
BUILD ?= $(SRC)/build
export BUILD

# What comes from Debian's packages is found while this file is parsed, so
# a make that installs them must not use what it found: every target that
# needs packages runs `deps` and then does its work in a sub-make (do-<target>
# below), which parses this file again after the packages are there.  For
# the same reason the values found here are never exported: an empty KDIR
# found before `deps` would reach the sub-make as if the user had set it.
# Values the user gives (command line or environment) pass down as usual.
DEPS ?= $(SRC)/scripts/deps.sh
DEBIAN_KERNELS_SH ?= $(SRC)/scripts/debian-kernels.sh
LABELS := $(shell $(SRC)/scripts/debian-kernels.sh labels)
HOST_SUITE := $(shell . /etc/os-release 2>/dev/null && echo $$VERSION_CODENAME)
KERNELS := 6.1 13
KERNEL ?= $(if $(filter trixie,$(HOST_SUITE)),13,6.1)
# What each label points to today: deps writes KVER_<L>, KROOT_<L> (its
# build root) and KSUITE_<L> of the kernels this make needs.
KERNELS_MK := $(BUILD)/debian-kernels.mk
-include $(KERNELS_MK)
# Where kernel headers are, inside a build root (or on the host).
HEADERS_ROOT ?= /usr/src
# Unpacked Debian kernels: KVER/vmlinuz and KVER/modules.
DEBIAN_KERNELS ?= $(or $(CPURNG_KERNEL_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cpurng/kernels)/debian
# The host's own headers of one kernel series, default flavour, for
# installing on a real machine: linux-headers-6.1.0-57-amd64 or
# linux-headers-6.12.118+deb12-amd64 (never 6.12 for 6.1: the series is
# followed by a dot; never -cloud-amd64 or -rt-amd64).  The newest of the
# series if several are installed.
headers-of = $(shell ls -d $(HEADERS_ROOT)/linux-headers-$(1).*-amd64 \
	       2>/dev/null | grep -Ev -- '-(cloud|rt)-amd64$$' | sort -V | tail -n 1)
# Debian's headers carry the upstream version in kernel.release; the name
# the kernel reports (and its module directory) is UTS_RELEASE.
uts-of = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	   $(1)/include/generated/utsrelease.h 2>/dev/null)
# The variable suffix of a kernel label: 6.12 -> 6_12, 13-bpo -> 13_BPO.
ksuffix = $(shell echo '$(1)' | tr 'a-z.-' 'A-Z__')
kvar = $($(1)_$(call ksuffix,$(2)))
# Installing on this machine (scripts/install.mk) builds against its own
# headers of KERNEL's series when it has them; everything else against
# KERNEL's build root.
INSTALL_GOALS := $(filter install uninstall dkms-install,$(MAKECMDGOALS))
ifeq ($(origin KDIR),undefined)
ifeq ($(filter $(KERNEL),$(LABELS)),)
$(error KERNEL=$(KERNEL): Debian kernels are $(LABELS); pass KDIR= for another)
endif
KDIR := $(if $(INSTALL_GOALS),$(call headers-of,$(KERNEL)))
ifeq ($(KDIR),)
KVER ?= $(call kvar,KVER,$(KERNEL))
KROOT ?= $(call kvar,KROOT,$(KERNEL))
KSUITE ?= $(call kvar,KSUITE,$(KERNEL))
KDIR := $(if $(KVER),$(HEADERS_ROOT)/linux-headers-$(KVER))
endif
endif
ifeq ($(origin KVER),undefined)
KVER := $(call uts-of,$(KROOT)$(KDIR))
endif
KIMAGE ?= $(DEBIAN_KERNELS)/$(KVER)/vmlinuz
KMODDIR ?= $(DEBIAN_KERNELS)/$(KVER)/modules
# Our modules for KERNEL, one tree per build variant (release, testing).
KMODULES ?= $(BUILD)/$(KERNEL)
# The kernels make check and make bench run on: the two default kernels,
# or only the one the user named (KERNEL= or KDIR=).
ifneq ($(filter command line environment,$(origin KERNEL) $(origin KDIR)),)
CHECK_KERNELS ?= $(KERNEL)
else
CHECK_KERNELS ?= $(KERNELS)
endif
# Per kernel K of CHECK_KERNELS: build root, headers, release, image and
# module tree; KERNEL's are the values above (which the user may have set).
kroot-for = $(if $(filter $(1),$(KERNEL)),$(KROOT),$(call kvar,KROOT,$(1)))
ksuite-for = $(if $(filter $(1),$(KERNEL)),$(KSUITE),$(call kvar,KSUITE,$(1)))
kver-for = $(if $(filter $(1),$(KERNEL)),$(KVER),$(call kvar,KVER,$(1)))
kdir-for = $(if $(filter $(1),$(KERNEL)),$(KDIR),$(addprefix $(HEADERS_ROOT)/linux-headers-,$(call kver-for,$(1))))
kimage-for = $(if $(filter $(1),$(KERNEL)),$(KIMAGE),$(DEBIAN_KERNELS)/$(call kver-for,$(1))/vmlinuz)
kmoddir-for = $(if $(filter $(1),$(KERNEL)),$(KMODDIR),$(DEBIAN_KERNELS)/$(call kver-for,$(1))/modules)
# The kernel the VM boots, for the harness and the evidence script; and
# for --kernel K of the harness, the same values with the suffix _K.
KERNEL_ENV = KERNEL='$(KERNEL)' KDIR='$(KDIR)' KVER='$(KVER)' \
	KIMAGE='$(KIMAGE)' KMODDIR='$(KMODDIR)' KMODULES='$(KMODULES)' \
	$(foreach k,$(CHECK_KERNELS),\
	  KVER_$(call ksuffix,$(k))='$(call kver-for,$(k))' \
	  KIMAGE_$(call ksuffix,$(k))='$(call kimage-for,$(k))' \
	  KMODDIR_$(call ksuffix,$(k))='$(call kmoddir-for,$(k))' \
	  KMODULES_$(call ksuffix,$(k))='$(BUILD)/$(k)')
HARNESS_KERNELS = $(addprefix --kernel ,$(CHECK_KERNELS))
# The kernels this make builds for (deps prepares their build roots),
# unless the user named the headers.
NEEDED_KERNELS = $(if $(filter command line environment,$(origin KDIR)),,$(sort $(CHECK_KERNELS) $(KERNEL)))

CC ?= gcc
HOST_CFLAGS := -O2 -g -Wall -Wextra -Werror -std=gnu11
GUEST_CFLAGS := $(HOST_CFLAGS) -D_GNU_SOURCE
GUEST_LDLIBS := -lpthread
PYTHON ?= python3
HARNESS = $(KERNEL_ENV) $(PYTHON) $(SRC)/tests/harness/main.py --build $(BUILD)

# User tools (tools/*.c, each with its man page), linked with libkcapi.
TOOLS := $(patsubst $(SRC)/tools/%.c,$(BUILD)/tools/%,\
	   $(wildcard $(SRC)/tools/*.c))
TOOL_LDLIBS := -lkcapi
# A distribution's flags (dpkg-buildflags: hardening) apply to the tools it
# ships; the -O0 noise core linked into cpurng-capture keeps its own.
TOOL_CFLAGS = $(GUEST_CFLAGS) $(CPPFLAGS) $(CFLAGS)
TOOL_LDFLAGS = $(LDFLAGS)

# The kernel's kselftest framework (kselftest.h, kselftest_harness.h,
# lib.mk) from Debian's linux-source-6.12, unpacked once on first use.
KSFT_DIR = $(eval KSFT_DIR := $$(shell $(SRC)/scripts/kselftest-src.sh))$(KSFT_DIR)
# Test programs report through it (tests/lib/ksft_report.h).
TEST_INCLUDES = -I$(SRC)/tests/lib -I$(KSFT_DIR)

# Programs that run inside the test VM (tests/vm/progs/*.c).
GUEST_PROGS := $(patsubst $(SRC)/tests/vm/progs/%.c,$(BUILD)/guest/bin/%,\
		 $(wildcard $(SRC)/tests/vm/progs/*.c))
# Host unit tests: C programs built here, Python ones run in place.
HOST_C_TESTS := $(BUILD)/host/test_jitter_health \
		$(BUILD)/host/test_collector_core
HOST_BENCHES := $(BUILD)/host/bench_collector_mix \
		$(SRC)/tests/host/bench_jitter_native.py
HOST_TESTS := $(HOST_C_TESTS) $(SRC)/tests/host/test_build.py \
	      $(SRC)/tests/host/test_ea.py $(SRC)/tests/host/test_evidence_report.py \
	      $(SRC)/tests/harness/test_harness.py \
	      $(SRC)/tests/host/test_first_invocation.py \
	      $(SRC)/tests/host/test_install.py \
	      $(SRC)/tests/host/test_jitter_native.py
TEST_HEADERS := $(wildcard $(SRC)/tests/lib/*.h $(SRC)/include/cpurng/*.h)

# Files a kernel build needs, linked into one tree per variant so the
# release and testing objects never mix.
KBUILD_TREE := Kbuild Kconfig crypto include tests/modules tests/kunit

.PHONY: all modules modules-all modules-release modules-testing tools user-tools \
	guest-programs kselftest \
	host-tests $(PACKAGED_TARGETS) $(addprefix do-,$(PACKAGED_TARGETS)) \
	check-kernels do-check-kernels \
	check-debug-suites fresh-root-check package-check root-check lint-sparse-build \
	mutation-check \
	deps deps-packaging clean require-kdir

all: modules tools

tools: user-tools guest-programs host-tests kselftest

user-tools: $(TOOLS)

# A file named relative to the checkout (make build/tools/cpurng-jitter) is
# the same file as its absolute name, which the rules use.
ifeq ($(BUILD),$(SRC)/build)
build/%: $(BUILD)/% ;
endif

$(BUILD)/tools/%: $(SRC)/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(TOOL_LDFLAGS) $(if $(filter %-read,$*),$(TOOL_LDLIBS))

# The native capture runs the jitter noise core, built at -O0 as in the kernel.
$(BUILD)/tools/cpurng-capture: $(SRC)/tools/cpurng-capture.c \
		$(SRC)/tools/native/timestamp.c $(BUILD)/host/jitter_noise.o \
		$(TEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -o $@ $(filter %.c %.o,$^) $(TOOL_LDFLAGS)

# The jitter RNG run natively (cpurng-jitter): the module's own instance,
# conditioning and health-test sources, built against the userspace
# stand-ins of tools/native (whose unused kernel-style parameters and
# OpenSSL's SHA256_* calls would otherwise warn), and the noise core at -O0.
NATIVE_CFLAGS = $(TOOL_CFLAGS) -I$(SRC)/tools/native -Wno-unused-parameter \
		-Wno-deprecated-declarations
NATIVE_HEADERS := $(wildcard $(SRC)/tools/native/*.h $(SRC)/tools/native/*/*.h)
NATIVE_JITTER_OBJS := $(patsubst %,$(BUILD)/native/jitter_%.o,instance pool health)
$(BUILD)/native/%.o: $(SRC)/crypto/%.c $(TEST_HEADERS) $(NATIVE_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) -c -o $@ $<

$(BUILD)/tools/cpurng-jitter: $(SRC)/tools/cpurng-jitter.c $(NATIVE_JITTER_OBJS) \
		$(SRC)/tools/native/timestamp.c $(BUILD)/host/jitter_noise.o \
		$(TEST_HEADERS) $(NATIVE_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(TOOL_LDFLAGS) -lcrypto

EA_SRCS := $(wildcard $(SRC)/tools/ea/*.c)
$(BUILD)/tools/cpurng-spectrum: $(SRC)/tools/cpurng-spectrum.c \
		$(SRC)/tools/ea/noisefile.c $(SRC)/tools/ea/ea.h
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -o $@ $(filter %.c,$^) $(TOOL_LDFLAGS) -lm

$(BUILD)/tools/cpurng-ea: $(SRC)/tools/cpurng-ea.c $(EA_SRCS) $(SRC)/tools/ea/ea.h \
		$(SRC)/crypto/jitter_estimate.c $(SRC)/include/cpurng/jitter_estimate.h
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -o $@ $(filter %.c,$^) $(TOOL_LDFLAGS) -lm

# Debian's packages, then the kernels this make needs: their build roots
# with their headers, their images unpacked, and what each label points to
# today written to KERNELS_MK for the sub-make to read.
# Labels prepared earlier stay in it.
empty :=
space := $(empty) $(empty)
deps:
	@$(DEPS)
	@$(if $(NEEDED_KERNELS),mkdir -p $(BUILD) && { \
		grep -sv -E '^K[A-Z]+_($(subst $(space),|,$(strip $(foreach k,$(NEEDED_KERNELS),$(call ksuffix,$(k)))))) :=' $(KERNELS_MK); \
		$(DEBIAN_KERNELS_SH) prepare $(NEEDED_KERNELS); } > $(KERNELS_MK).new && \
		mv $(KERNELS_MK).new $(KERNELS_MK),:)

# What building Debian packages adds (dpkg-dev, debhelper, dh-dkms, lintian).
deps-packaging:
	@$(DEPS) packaging

require-kdir:
	@test -n "$(KDIR)" -a -f "$(KROOT)$(KDIR)/Makefile" || { \
		echo "error: no kernel headers for KERNEL=$(KERNEL) found; run 'make deps KERNEL=$(KERNEL)' or pass KDIR=" >&2; \
		exit 1; }
	@echo "kernel: KERNEL=$(KERNEL) KVER=$(KVER) KDIR=$(KDIR)$(if $(KROOT), in the $(KSUITE) build root $(KROOT))"

# The release and testing modules for each kernel of CHECK_KERNELS.
modules-all:
	@$(foreach k,$(CHECK_KERNELS),$(MAKE) --no-print-directory \
		modules-release modules-testing KERNEL=$(k) \
		KROOT='$(call kroot-for,$(k))' KSUITE='$(call ksuite-for,$(k))' \
		KDIR='$(call kdir-for,$(k))' KVER='$(call kver-for,$(k))' \
		KIMAGE='$(call kimage-for,$(k))' \
		KMODDIR='$(call kmoddir-for,$(k))' KMODULES='$(BUILD)/$(k)' &&) true

modules: modules-release

# Kbuild runs one job unless told: each variant builds on every CPU (about
# half the build time of make check and make bench on two CPUs).
KBUILD_JOBS ?= $(shell nproc)

# Debian's kernels build in their release's build root, with its compiler
# (the checkout and the build tree at their own paths inside).
KBUILD_RUN = $(if $(KROOT),$(SRC)/scripts/build-root.sh run $(KSUITE) \
	     --bind $(SRC) --bind $(BUILD) --)

# $(1): variant name, $(2): extra kbuild variables
define kbuild-variant
	@mkdir -p $(KMODULES)/$(1)/tests
	@for f in $(KBUILD_TREE); do \
		mkdir -p $(KMODULES)/$(1)/$$(dirname $$f); \
		if [ -d $(SRC)/$$f ]; then \
			mkdir -p $(KMODULES)/$(1)/$$f; \
			cp -rs --no-clobber $(SRC)/$$f/. $(KMODULES)/$(1)/$$f/; \
		else \
			ln -sfn $(SRC)/$$f $(KMODULES)/$(1)/$$f; \
		fi; \
	done
	$(KBUILD_RUN) $(MAKE) -C $(KDIR) M=$(KMODULES)/$(1) KCFLAGS=-Werror -j$(KBUILD_JOBS) $(2) modules
	@$(SRC)/scripts/sign-modules.sh $(KROOT)$(KDIR) $(KMODULES)/$(1)
endef

modules-release: require-kdir
	$(call kbuild-variant,release,)

modules-testing: require-kdir
	$(call kbuild-variant,testing,CONFIG_CRYPTO_CPURNG_TESTING=y)

guest-programs: $(GUEST_PROGS)

# The kselftest target tests/selftests/cpurng, built with the kernel's own
# lib.mk from Debian's linux-source-6.12 and installed as kselftest
# installs a collection: $(KSELFTEST)/install holds run_kselftest.sh,
# kselftest/runner.sh, kselftest-list.txt and cpurng/ (the guest's
# /kselftest).
KSELFTEST := $(BUILD)/kselftest
KSELFTEST_TARGET := $(SRC)/tests/selftests/cpurng
KSELFTEST_MAKE = $(MAKE) -s --no-print-directory -C $(KSELFTEST_TARGET) \
		 KSFT_DIR=$(KSFT_DIR) OUTPUT=$(KSELFTEST)/build
kselftest:
	@test -d "$(KSFT_DIR)"
	@mkdir -p $(KSELFTEST)/build && rm -rf $(KSELFTEST)/install
	$(KSELFTEST_MAKE) all
	$(KSELFTEST_MAKE) INSTALL_PATH=$(KSELFTEST)/install/cpurng install
	cp -r $(KSFT_DIR)/run_kselftest.sh $(KSFT_DIR)/kselftest $(KSELFTEST)/install/
	$(KSELFTEST_MAKE) COLLECTION=cpurng emit_tests \
		> $(KSELFTEST)/install/kselftest-list.txt

$(BUILD)/guest/bin/%: $(SRC)/tests/vm/progs/%.c $(TEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(TEST_INCLUDES) -o $@ $< $(GUEST_LDLIBS)

host-tests: $(HOST_C_TESTS) $(HOST_BENCHES)

# The noise core is built at -O0 here too, exactly as in the kernel.
$(BUILD)/host/jitter_noise.o: $(SRC)/crypto/jitter_noise.c $(TEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) -O0 -g -Wall -Wextra -Werror -c -o $@ $<

$(BUILD)/host/test_jitter_health: $(SRC)/tests/host/test_jitter_health.c \
		$(SRC)/tests/host/fake_timer.c $(SRC)/crypto/jitter_health.c \
		$(BUILD)/host/jitter_noise.o $(TEST_HEADERS)
	$(CC) $(HOST_CFLAGS) $(TEST_INCLUDES) -o $@ $(filter %.c %.o,$^) -lm

$(BUILD)/host/test_collector_core: $(SRC)/tests/host/test_collector_core.c \
		$(SRC)/crypto/collector_core.c $(TEST_HEADERS) \
		$(SRC)/tests/host/host_shim.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(TEST_INCLUDES) -I$(SRC)/tests/host -o $@ \
		$(filter %.c,$^) -lcrypto

$(BUILD)/host/bench_%: $(SRC)/tests/host/bench_%.c $(TEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(TEST_INCLUDES) -o $@ $<

# Targets that need Debian's packages: `deps` first, then the work in a
# sub-make that parses this file after the packages are installed (see
# KDIR above).  Each one's work is the rule do-<target>.
PACKAGED_TARGETS := check check-debug check-group bench evidence run shell lint
$(PACKAGED_TARGETS): deps
	@$(MAKE) --no-print-directory do-$@
# Those that build for KERNEL alone prepare only its build root; the debug
# lane builds for kernels of its own.
run shell lint evidence: NEEDED_KERNELS = $(if $(filter command line environment,$(origin KDIR)),,$(KERNEL))
check-debug: NEEDED_KERNELS =

# Each mutation of tests/mutations breaks what a check guards, in a
# throw-away worktree of HEAD, and must make that check fail
# (scripts/mutation-check.sh; MUTATIONS="name ..." picks some).
mutation-check: deps
	@$(SRC)/scripts/mutation-check.sh $(MUTATIONS)

# Debian's other kernels (Debian 12's 6.12, Debian 13's cloud and rt
# flavours, trixie-backports' newest in its three flavours), or the one
# KERNEL= names: every one builds, release and testing, and boots the "core"
# suite (the demo, registration, reads, self-tests, seed sources, the
# collector; on PREEMPT_RT kernels also the RT load group).
CORE_KERNELS = $(if $(filter command line environment,$(origin KERNEL)),$(KERNEL),$(filter-out $(KERNELS),$(LABELS)))
check-kernels: CHECK_KERNELS = $(CORE_KERNELS)
check-kernels: NEEDED_KERNELS = $(CORE_KERNELS)
check-kernels: deps
	@$(MAKE) --no-print-directory do-check-kernels CHECK_KERNELS='$(CHECK_KERNELS)'

do-check-kernels: modules-all tools
	$(HARNESS) check --suite core $(HARNESS_KERNELS)

# The README's test command: builds, runs the host unit tests and every VM
# group of the "check" suite.
do-check: modules-all tools
	$(HARNESS) check --suite check $(HARNESS_KERNELS) $(addprefix --host-test ,$(HOST_TESTS))

# The debug lane, on our own kernels (scripts/kernel.sh; built once and
# cached outside the checkout):
#   debug    KASAN, lockdep, kmemleak, UBSAN, failslab, CRYPTO_FIPS and
#            module signing: the "check" suite, then the "debug" suite
#            (real fips=1 boots, fault injection, the AF_ALG fuzzer)
#   builtin  cpurng built in: the "builtin" suite (boot self-tests)
# Everything it builds goes to $(BUILD)/kernel-debug.
DEBUG_TIMEOUT_SCALE ?= 4
# Two VMs at once, as in make check: the harness pairs only VMs on
# single-threaded TCG (one host thread each) and doubles every timeout
# when it pairs.  DEBUG_VM_JOBS=1 runs one at a time.
DEBUG_VM_JOBS ?= 2
# Debian's kernel trusts RDRAND to initialise its RNG (RANDOM_TRUST_CPU);
# tinyconfig does not, so say it on the command line: the DRBG tests expect
# get_random_bytes to become credited as on Debian.  The AF_ALG fuzzer runs
# about 20 times slower there: 20,000 operations instead of 100,000.
DEBUG_CMDLINE ?= random.trust_cpu=on cpurng_fuzz_ops=20000
# DEBUG_KERNELS="debug" or "builtin" builds and boots one of the two, and
# DEBUG_SUITES picks the suites (default: all those of the kernels built;
# CI takes one kernel a run, see .ci/run).
DEBUG_KERNELS ?= debug builtin
DEBUG_SUITES ?= $(if $(filter debug,$(DEBUG_KERNELS)),check debug) \
		$(if $(filter builtin,$(DEBUG_KERNELS)),builtin)
do-check-debug:
	@k=; b=; kver=; bver=; \
	$(if $(filter debug,$(DEBUG_KERNELS)),k=$$($(SRC)/scripts/kernel.sh debug) && \
		kver=$$(cat $$k/build/include/config/kernel.release) || exit 1;) \
	$(if $(filter builtin,$(DEBUG_KERNELS)),b=$$($(SRC)/scripts/kernel.sh builtin) && \
		bver=$$(cat $$b/build/include/config/kernel.release) || exit 1;) \
	CPURNG_TIMEOUT_SCALE=$(DEBUG_TIMEOUT_SCALE) CPURNG_VM_JOBS=$(DEBUG_VM_JOBS) \
	CPURNG_KERNEL_CMDLINE="$(DEBUG_CMDLINE)" \
	KIMAGE_BUILTIN=$$b/build/arch/x86/boot/bzImage \
	KMODDIR_BUILTIN=$$b/mod/lib/modules/$$bver KVER_BUILTIN=$$bver \
	$(MAKE) --no-print-directory check-debug-suites KERNEL=debug KDIR=$$k/build \
		KVER=$$kver KIMAGE=$$k/build/arch/x86/boot/bzImage \
		KMODDIR=$$k/mod/lib/modules/$$kver BUILD=$(BUILD)/kernel-debug

# Groups the lane leaves out (GROUP= still runs them).  stats runs rngtest
# over RNG output: its verdict is about output statistics, which this
# kernel's checkers cannot change, and make check runs it on both Debian
# kernels.  It was the lane's longest group (555 s of a 75-minute CI).
DEBUG_SKIP_GROUPS ?= stats
DEBUG_SKIP_REASON ?= output statistics, which the checkers of the debug kernel do not change; make check runs it on both Debian kernels
check-debug-suites: $(if $(filter debug,$(DEBUG_KERNELS)),modules-release modules-testing) tools
	$(HARNESS) check $(if $(GROUP),$(addprefix --group ,$(GROUP)),\
		$(addprefix --suite ,$(DEBUG_SUITES)) \
		$(addprefix --skip-group ,$(DEBUG_SKIP_GROUPS)) \
		--skip-reason '$(DEBUG_SKIP_REASON)')

# Benchmarks: the VM groups of the "bench" suite; ratios, side by side.
do-bench: modules-all tools
	$(HARNESS) check --suite bench $(HARNESS_KERNELS) $(addprefix --host-test ,$(HOST_BENCHES))

# Entropy evidence: raw captures (native and in VMs), SP800-90B analysis,
# plots and build/evidence/report/report.rst.  EVIDENCE_ARGS=--publish
# copies the report to Documentation/.  Takes about half an hour.
do-evidence: modules-testing tools
	$(KERNEL_ENV) $(PYTHON) $(SRC)/scripts/evidence.py $(EVIDENCE_ARGS)

# Selected VM groups: make check-group GROUP="jitter jitter-icount"
do-check-group: modules-all tools
	$(HARNESS) check $(HARNESS_KERNELS) $(addprefix --group ,$(GROUP))

# The demo exits non-zero unless the guest ran it to its end.
do-run: modules-release tools
	$(HARNESS) demo

do-shell: modules-release tools
	$(HARNESS) shell

# sparse builds in KERNEL's build root: its inner make takes KDIR from the
# environment, so the root goes along.
do-lint:
	@$(KERNEL_ENV) KROOT='$(KROOT)' KSUITE='$(KSUITE)' $(SRC)/scripts/lint.sh

# sparse over every object, test hooks included (C=2 checks even when
# nothing needs rebuilding).
lint-sparse-build: require-kdir
	$(call kbuild-variant,lint,CONFIG_CRYPTO_CPURNG_TESTING=y C=2)

# The README's first command on a fresh debootstrap root of Debian 12
# (ROOT_SUITE=bookworm, the default) or 13 (ROOT_SUITE=trixie); see the
# script.
ROOT_SUITE ?= bookworm
export ROOT_SUITE
FRESH_ROOT ?= $(BUILD)/fresh-root-$(ROOT_SUITE)
fresh-root-check:
	@$(SRC)/scripts/fresh-root-check.sh $(FRESH_ROOT)

# The Debian packages built, installed, booted and purged on a fresh root
# of ROOT_SUITE: the one fresh-root-check keeps with FRESH_ROOT_KEEP=1, or
# a new one.
package-check:
	@$(SRC)/scripts/package-check.sh $(FRESH_ROOT)

# Both, on one fresh root: everything a user of that release does first.
root-check:
	@FRESH_ROOT_KEEP=1 $(SRC)/scripts/fresh-root-check.sh $(FRESH_ROOT); a=$$?; \
	$(SRC)/scripts/package-check.sh $(FRESH_ROOT); b=$$?; \
	[ $$a = 0 ] && [ $$b = 0 ]

include $(SRC)/scripts/install.mk

# A fresh root left mounted must not take the host's /dev or /proc with it.
clean:
	@for r in $(BUILD)/fresh-root-*; do [ ! -d "$$r" ] || \
		$(SRC)/scripts/fresh-root.sh remove "$$r"; done
	rm -rf --one-file-system $(BUILD)
