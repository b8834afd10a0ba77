# The two commands of README.md: `make run` starts the kiosk, `make test` installs what the
# tests need and runs them all. Everything else is a helper of these.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast lint bench clean image bundle boot-test boot-test-512 update-test

# only what running needs (tools/install.sh runtime); `make test` adds the test tool chain
run: $(VENV)/.installed-runtime
	$(VENV)/bin/kiosk run $(ARGS)

test:
	tools/test.sh

test-fast:
	SOLITAIRE_KIOSK_NO_IMAGE=1 tools/test.sh -m "not slow"

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .

# The SD-card image from Debian's archive (root needed; image-build/debian/build-image.sh), and
# its boot in QEMU with every check of tests/platform/test_boot_image.py.
IMAGE ?= build/solitaire-kiosk-arm64.img
# The keys of the updates (docs/updates.md): the image holds the CA certificate (the keyring),
# a bundle is signed with the signing key. Without an office's own, a development CA and key
# are made once in build/keys/ (never in the repository, never in the image).
KEYS ?= build/keys
KIOSK_KEYRING ?= $(KEYS)/ca.cert.pem
KIOSK_SIGNING_KEY ?= $(KEYS)/signing.key.pem
KIOSK_SIGNING_CERT ?= $(KEYS)/signing.cert.pem
export KIOSK_KEYRING KIOSK_SIGNING_KEY KIOSK_SIGNING_CERT
# `make bundle`: the update bundle (and the image) of one build, from the same root
BUNDLE ?= build/solitaire-kiosk-arm64.raucb

$(KEYS)/ca.cert.pem:
	image-build/signing-keys.sh $(KEYS)

image: $(VENV)/.installed $(KIOSK_KEYRING)
	PYTHON=$(PY) nice image-build/debian/build-image.sh $(IMAGE)

bundle: $(VENV)/.installed $(KIOSK_KEYRING)
	KIOSK_BUNDLE=$(BUNDLE) PYTHON=$(PY) nice image-build/debian/build-image.sh $(IMAGE)

boot-test: $(VENV)/.installed
	SOLITAIRE_KIOSK_IMAGE=$(IMAGE) SOLITAIRE_KIOSK_KEYS=$(KEYS) nice $(PY) -m pytest \
		tests/platform/test_boot_image.py -v $(ARGS)

# what an update survives (docs/updates.md): power cuts in an install and in the new slot's
# first boot, a bundle whose kiosk cannot start; about an hour of emulated boots
update-test: $(VENV)/.installed
	SOLITAIRE_KIOSK_UPDATE_TEST=1 SOLITAIRE_KIOSK_IMAGE=$(IMAGE) SOLITAIRE_KIOSK_KEYS=$(KEYS) \
		nice $(PY) -m pytest tests/platform/test_update_image.py -v $(ARGS)

# the same image on a 512 MB board (-m 512), a tour of games by touch and the memory all along
boot-test-512: $(VENV)/.installed
	SOLITAIRE_KIOSK_BOOT_512=1 SOLITAIRE_KIOSK_IMAGE=$(IMAGE) nice $(PY) -m pytest \
		tests/platform/test_boot_512m.py -v $(ARGS)

$(VENV)/.installed-runtime: pyproject.toml tools/debian-packages-runtime.txt
	tools/install.sh runtime
	touch $@

$(VENV)/.installed: pyproject.toml tools/debian-packages-runtime.txt tools/debian-packages.txt
	tools/install.sh test
	touch $@ $(VENV)/.installed-runtime

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache
