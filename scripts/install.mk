# SPDX-License-Identifier: GPL-2.0
#
# Installing cpurng on a real machine; included by the top-level Makefile.
#
#   make install          modules of KERNEL into /lib/modules/KVER/updates/,
#                         tools and man pages under PREFIX, boot files
#   make uninstall        all of that removed again
#   make dkms-install     the modules through DKMS instead, plus boot files
#   make dkms-uninstall
#   make deb              Debian packages cpurng-dkms and cpurng-tools
#
# DESTDIR= stages everything in a directory and then touches nothing else
# (no depmod, initramfs or GRUB update): the Debian build uses it.

# The version is debian/changelog's first entry (its parentheses balanced
# for make): "cpurng (0.1.0) bookworm; ..." gives 0.1.0.
ifeq ($(origin VERSION),undefined)
VERSION := $(shell sed -n '1s/^cpurng .\([^ ]*\). .*/\1/p' $(SRC)/debian/changelog)
endif
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# A local install goes where the administrator's own files go; the Debian
# package overrides these with the distribution's directories.
MODPROBEDIR ?= /etc/modprobe.d
MODULESLOADDIR ?= /etc/modules-load.d
INITRAMFS_HOOKDIR ?= /etc/initramfs-tools/hooks
GRUBDDIR ?= /etc/default/grub.d
# depmod searches updates/ before the kernel's own directories.
MOD_SUBDIR := updates/cpurng
MODULE_NAMES := cpurng_jitter cpurng_collector cpurng_drbg
DKMS_SRC = /usr/src/cpurng-$(VERSION)
# What the DKMS source tree holds: Kbuild and the kernel code only.
DKMS_TREE := Kbuild Kconfig crypto include

# /etc/default/grub.d is made by our install where no package has it; an
# uninstall takes it away again when it is empty and still no package's.
GRUBD_RMDIR = if ! dpkg-query -S $(GRUBDDIR) >/dev/null 2>&1; then \
	rmdir $(DESTDIR)$(GRUBDDIR) 2>/dev/null || true; fi

CONFIG_FILES := $(DESTDIR)$(MODPROBEDIR)/cpurng.conf \
		$(DESTDIR)$(MODULESLOADDIR)/cpurng.conf \
		$(DESTDIR)$(INITRAMFS_HOOKDIR)/cpurng \
		$(DESTDIR)$(GRUBDDIR)/cpurng.cfg

.PHONY: install uninstall install-modules install-tools install-config \
	install-dkms-source install-precheck install-target-check dkms-install dkms-uninstall \
	deb do-deb

# Everything that can fail is checked before anything is copied.  No
# packages are installed for this: a production machine gets only what
# it needs, which is build-essential, the kernel's headers and libkcapi-dev.
install-precheck: install-target-check
	@test -e /usr/include/kcapi.h || { \
		echo "error: libkcapi-dev is missing (apt-get install libkcapi-dev)" >&2; \
		exit 1; }

install-target-check: require-kdir
ifeq ($(DESTDIR),)
	@test -w /lib/modules -a -w $(PREFIX) 2>/dev/null || { \
		echo "error: installing into / needs root (or stage it with DESTDIR=)" >&2; \
		exit 1; }
	@test -d /lib/modules/$(KVER) || { \
		echo "error: kernel $(KVER) is not installed (no /lib/modules/$(KVER)); install linux-image-$(KVER) or pick KERNEL=" >&2; \
		exit 1; }
endif

install: install-precheck modules-release user-tools
	@$(MAKE) --no-print-directory install-modules install-tools install-config
ifeq ($(DESTDIR),)
	@$(SRC)/scripts/boot-refresh.sh $(KVER)
endif
	@echo "install: cpurng for $(KVER) in $(DESTDIR)/lib/modules/$(KVER)/$(MOD_SUBDIR), tools in $(DESTDIR)$(BINDIR)"

# Not Kbuild's modules_install: against Debian's headers it tries to sign
# with a key they do not have, and prints OpenSSL errors for every module.
# Ours are stripped of debug info as Kbuild's INSTALL_MOD_STRIP=1 and DKMS
# do, and compressed as the kernel's own (6.12: xz); depmod is run after.
MOD_XZ = $(shell grep -qs '^CONFIG_MODULE_COMPRESS_XZ=y' $(KROOT)$(KDIR)/include/config/auto.conf && echo y)
MOD_INSTALL_DIR = $(DESTDIR)/lib/modules/$(KVER)/$(MOD_SUBDIR)
install-modules:
	install -d $(MOD_INSTALL_DIR)
	install -m 0644 $(addprefix $(KMODULES)/release/crypto/,$(MODULE_NAMES:=.ko)) \
		$(MOD_INSTALL_DIR)/
	$(SRC)/scripts/strip-modules.sh $(addprefix $(MOD_INSTALL_DIR)/,$(MODULE_NAMES:=.ko))
	$(if $(MOD_XZ),xz -f --check=crc32 --lzma2=dict=1MiB $(MOD_INSTALL_DIR)/*.ko)

install-tools:
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(patsubst $(BUILD)/tools/%,$(SRC)/tools/%.1,$(TOOLS)) \
		$(DESTDIR)$(MANDIR)/man1/

install-config:
	install -D -m 0644 $(SRC)/config/modprobe.conf $(DESTDIR)$(MODPROBEDIR)/cpurng.conf
	install -D -m 0644 $(SRC)/config/modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/cpurng.conf
	install -D -m 0755 $(SRC)/config/initramfs-hook $(DESTDIR)$(INITRAMFS_HOOKDIR)/cpurng
	install -D -m 0644 $(SRC)/config/grub.cfg $(DESTDIR)$(GRUBDDIR)/cpurng.cfg

uninstall: install-target-check
	rm -rf $(MOD_INSTALL_DIR)
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOLS))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(TOOLS:=.1))) \
	      $(CONFIG_FILES)
	@$(GRUBD_RMDIR)
ifeq ($(DESTDIR),)
	@$(SRC)/scripts/boot-refresh.sh $(KVER)
endif

# The source tree DKMS builds from, with the version filled in.
install-dkms-source:
	install -d $(DESTDIR)$(DKMS_SRC)
	cp -r $(addprefix $(SRC)/,$(DKMS_TREE)) $(DESTDIR)$(DKMS_SRC)/
	sed 's/#MODULE_VERSION#/$(VERSION)/' $(SRC)/dkms.conf > $(DESTDIR)$(DKMS_SRC)/dkms.conf

dkms-install: require-kdir
	@$(SRC)/scripts/dkms-install.sh install $(VERSION) $(KVER)
	@$(MAKE) --no-print-directory install-config
	@$(SRC)/scripts/boot-refresh.sh $(KVER)

# The kernels DKMS had built for are the ones whose initramfs changes.
dkms-uninstall:
	@kvers=$$(dkms status -m cpurng -v $(VERSION) 2>/dev/null | \
		sed -n 's|^cpurng/[^,]*, \([^,]*\),.*|\1|p'); \
	$(SRC)/scripts/dkms-install.sh uninstall $(VERSION) && \
	rm -f $(CONFIG_FILES) && { $(GRUBD_RMDIR); } && \
	for k in $$kvers; do $(SRC)/scripts/boot-refresh.sh $$k || exit 1; done

# Debian packages, built from a copy of the tree (the checkout stays
# clean) and checked with lintian; they land in $(BUILD)/deb.
deb: deps-packaging
	@$(MAKE) --no-print-directory do-deb

DEB_DIR = $(BUILD)/deb
do-deb:
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/cpurng-$(VERSION)
	tar -C $(SRC) --exclude=./build --exclude=./.git -cf - . | \
		tar -C $(DEB_DIR)/cpurng-$(VERSION) -xf -
	cd $(DEB_DIR)/cpurng-$(VERSION) && \
		env -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc
	lintian --fail-on error,warning --display-info \
		$(DEB_DIR)/cpurng_$(VERSION)_$$(dpkg --print-architecture).changes
	@ls -l $(DEB_DIR)/*.deb
