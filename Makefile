# gesture-bridge: build, install and package. What goes where, and why: docs/packaging.md.
#
#   make                      release binary, Swift runtime linked in (needs no toolchain to run)
#   make install              into PREFIX (default ~/.local); DESTDIR= for staging
#   make uninstall            removes exactly what `make install` wrote (same PREFIX and DESTDIR)
#   make deb                  dist/gesture-bridge_VERSION_ARCH.deb (Debian, Ubuntu)
#   make clean                removes BUILDDIR and dist/
#
# The build goes to BUILDDIR (default .build-release, git-ignored), never to swift's own .build,
# so a debug `swift build` / `swift test` and this release build do not undo each other.

PREFIX   ?= $(HOME)/.local
DESTDIR  ?=
BUILDDIR ?= .build-release
SWIFT    ?= swift
PYTHON   ?= python3
STRIP    ?= strip

BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/gesture-bridge
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
MANIFEST    ?= $(DATADIR)/gesture-bridge/install-manifest

# Where systemd and the desktop look: they read only a few directories (systemd-analyze --user
# unit-paths; the XDG autostart spec), so these follow the kind of install, not just PREFIX.
ifneq ($(filter $(HOME)/.local $(HOME)/.local/,$(PREFIX)),)
# A user's own install: systemd reads ~/.local/share/systemd/user (not ~/.local/lib/...), and
# autostart entries are read from ~/.config/autostart.
USERUNITDIR  ?= $(DATADIR)/systemd/user
AUTOSTARTDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/autostart
else ifneq ($(filter /usr /usr/ /usr/local /usr/local/,$(PREFIX)),)
USERUNITDIR  ?= $(PREFIX)/lib/systemd/user
AUTOSTARTDIR ?= /etc/xdg/autostart
else
# Any other PREFIX (/opt/gesture-bridge, a test directory): everything stays under it.
USERUNITDIR  ?= $(PREFIX)/lib/systemd/user
AUTOSTARTDIR ?= $(PREFIX)/etc/xdg/autostart
endif

# -Xswiftc -static-stdlib is what --static-swift-stdlib passes to the link; given as a swiftc
# flag, `swift package plugin generate-manual` (which takes no --static-swift-stdlib) builds
# with exactly the same flags and reuses the same build. No $ORIGIN rpath: nothing is beside
# the installed binary.
SWIFTFLAGS := --scratch-path $(BUILDDIR) -Xswiftc -static-stdlib --disable-local-rpath
BIN := $(BUILDDIR)/release/gesture-bridge
GEN := $(BUILDDIR)/packaging
# Everything the binary is built from; make rebuilds only when one of them changed, so
# `sudo make install` after `make` does not build as root.
SOURCES := Package.swift $(wildcard Package.resolved) $(shell find Sources -type f)
# The date on the man pages: the last commit's, so that the same tree gives the same pages.
MANDATE := $(or $(shell git log -1 --format=%cs 2>/dev/null),$(shell date -u +%F))

PAGES := $(GEN)/gesture-bridge.1 $(GEN)/gesture-bridge.toml.5
COMPLETIONS := $(GEN)/gesture-bridge.bash $(GEN)/_gesture-bridge $(GEN)/gesture-bridge.fish
ARTIFACTS := $(GEN)/gesture-bridge $(PAGES) $(COMPLETIONS)

.PHONY: all build install uninstall deb clean
.DELETE_ON_ERROR:

all build: $(ARTIFACTS)

# The manual generator runs here too: it builds the package's products in release mode (a no-op
# for gesture-bridge just built) and must not touch the binary after make's timestamp.
MANUAL := $(BUILDDIR)/plugins/GenerateManual/outputs/gesture-bridge/gesture-bridge.1
$(BIN): $(SOURCES)
	$(SWIFT) build -c release $(SWIFTFLAGS) --product gesture-bridge
	$(SWIFT) package $(SWIFTFLAGS) plugin generate-manual --date $(MANDATE)
	@touch $@
# Only if it went missing while the binary stayed.
$(MANUAL):
	$(SWIFT) package $(SWIFTFLAGS) plugin generate-manual --date $(MANDATE)

# The installed binary: stripped (STRIP=true keeps the symbols).
$(GEN)/gesture-bridge: $(BIN)
	@mkdir -p $(@D)
	cp $< $@.tmp && $(STRIP) $@.tmp && mv $@.tmp $@

# gesture-bridge(1), from the command definitions by swift-argument-parser's manual generator.
# Its blank lines (paragraphs of a discussion) become .Pp, .Os names the version; FILES and
# SEE ALSO are added.
$(GEN)/gesture-bridge.1: $(BIN) $(MANUAL) Makefile
	@mkdir -p $(@D)
	@echo "writing $@ (from $(MANUAL))"
	@{ sed -e 's/^$$/.Pp/' -e "s/^\.Os$$/.Os gesture-bridge $$($(BIN) --version)/" $(MANUAL); echo; \
	  printf '%s\n' '.Sh FILES' '.Bl -tag -width Ds' \
	    '.It Pa $$XDG_CONFIG_HOME/gesture-bridge/config.toml' 'The config (~/.config/gesture-bridge/config.toml).' \
	    '.It Pa $$XDG_CONFIG_DIRS/gesture-bridge/config.toml' 'A system-wide config (/etc/xdg/gesture-bridge/config.toml).' \
	    '.It Pa gesture-bridge.service' 'The systemd user unit: systemctl --user enable --now gesture-bridge' \
	    '.It Pa PREFIX/share/doc/gesture-bridge/shapes.svg' 'The built-in stroke shapes, each with where it starts and which way it goes; gesture-bridge shapes prints its path.' \
	    '.El' '.Sh SEE ALSO' '.Xr gesture-bridge.toml 5 ,' '.Xr systemctl 1'; } > $@

# gesture-bridge.toml(5), from the config reference.
$(GEN)/gesture-bridge.toml.5: docs/config.md scripts/config-manpage $(BIN)
	@mkdir -p $(@D)
	$(PYTHON) scripts/config-manpage docs/config.md "$$($(BIN) --version)" $(MANDATE) > $@

$(GEN)/gesture-bridge.bash: $(BIN) Makefile
	@mkdir -p $(@D)
	# Completion files are sourced, not run: no #! line (lintian: bash-completion-with-hashbang).
	$(BIN) --generate-completion-script bash | sed '1{/^#!/d}' > $@
$(GEN)/_gesture-bridge: $(BIN)
	@mkdir -p $(@D)
	$(BIN) --generate-completion-script zsh > $@
$(GEN)/gesture-bridge.fish: $(BIN)
	@mkdir -p $(@D)
	$(BIN) --generate-completion-script fish > $@

# The unit and the autostart entry name the binary by its absolute path, so both are written
# with BINDIR in place of /usr/bin at install time (not cached: each install has its own).
install: $(ARTIFACTS) config/gesture-bridge.service config/gesture-bridge.desktop config/default.toml docs/shapes.svg
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	sed 's#/usr/bin/gesture-bridge#$(BINDIR)/gesture-bridge#g' config/gesture-bridge.service > "$$tmp/gesture-bridge.service" && \
	sed 's#/usr/bin/gesture-bridge#$(BINDIR)/gesture-bridge#g' config/gesture-bridge.desktop > "$$tmp/gesture-bridge.desktop" && \
	printf '%s\n' \
	  "755 $(GEN)/gesture-bridge $(BINDIR)/gesture-bridge" \
	  "644 $(GEN)/gesture-bridge.1 $(MANDIR)/man1/gesture-bridge.1" \
	  "644 $(GEN)/gesture-bridge.toml.5 $(MANDIR)/man5/gesture-bridge.toml.5" \
	  "644 $(GEN)/gesture-bridge.bash $(BASHCOMPDIR)/gesture-bridge" \
	  "644 $(GEN)/_gesture-bridge $(ZSHCOMPDIR)/_gesture-bridge" \
	  "644 $(GEN)/gesture-bridge.fish $(FISHCOMPDIR)/gesture-bridge.fish" \
	  "644 config/default.toml $(DOCDIR)/config.example.toml" \
	  "644 docs/shapes.svg $(DOCDIR)/shapes.svg" \
	  "644 $$tmp/gesture-bridge.service $(USERUNITDIR)/gesture-bridge.service" \
	  "644 $$tmp/gesture-bridge.desktop $(AUTOSTARTDIR)/gesture-bridge.desktop" \
	| sh scripts/install-tree install "$(DESTDIR)" "$(MANIFEST)"

uninstall:
	sh scripts/install-tree uninstall "$(DESTDIR)" "$(MANIFEST)"

deb: $(ARTIFACTS)
	MAKE="$(MAKE)" BUILDDIR="$(BUILDDIR)" sh scripts/build-deb

clean:
	rm -rf $(BUILDDIR) dist
