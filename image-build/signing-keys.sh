#!/bin/sh
# A certificate authority and a bundle-signing key for RAUC, made with openssl: what
# `make image` and `make bundle` use when no key is given (build/keys/), what the tests make
# for each run, and the recipe docs/updates.md gives an office for its own (keep ca.key
# offline, away from the build machine; a leaked signing key is replaced by a new one that
# the same CA signs, the CA alone goes into the image's keyring).
#
# usage: signing-keys.sh DIR [NAME]
#   DIR/ca.key.pem, DIR/ca.cert.pem            the CA (its certificate is the image's keyring)
#   DIR/signing.key.pem, DIR/signing.cert.pem  the key that signs bundles (codeSigning)
# NAME (default "Solitaire kiosk development") goes into the certificates' names.
# An existing DIR/ca.key.pem is kept (a new signing key under the same CA).
set -eu

dir=${1:?usage: signing-keys.sh DIR [NAME]}
name=${2:-Solitaire kiosk development}
command -v openssl >/dev/null || { echo "signing-keys: openssl is missing" >&2; exit 2; }
mkdir -p "$dir"
umask 077
if [ ! -f "$dir/ca.key.pem" ]; then
    openssl req -x509 -newkey rsa:3072 -nodes -sha256 -days 7300 \
        -keyout "$dir/ca.key.pem" -out "$dir/ca.cert.pem" -subj "/O=$name/CN=$name CA" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
fi
openssl req -newkey rsa:3072 -nodes -sha256 -keyout "$dir/signing.key.pem" \
    -out "$dir/signing.csr" -subj "/O=$name/CN=$name bundle signing" 2>/dev/null
printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=critical,codeSigning" "subjectKeyIdentifier=hash" \
    "authorityKeyIdentifier=keyid,issuer" > "$dir/signing.ext"
openssl x509 -req -sha256 -days 1825 -in "$dir/signing.csr" -CA "$dir/ca.cert.pem" \
    -CAkey "$dir/ca.key.pem" -CAcreateserial -extfile "$dir/signing.ext" \
    -out "$dir/signing.cert.pem" 2>/dev/null
rm -f "$dir/signing.csr" "$dir/signing.ext"
chmod 644 "$dir/ca.cert.pem" "$dir/signing.cert.pem"
echo "signing-keys: $dir/ca.cert.pem (the keyring), $dir/signing.key.pem + signing.cert.pem (signs bundles)"
