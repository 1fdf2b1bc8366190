#!/usr/bin/env bash
# Re-fetches the ALTCHA widget with npm and rewrites the vendored copy the provider JAR serves:
#
#   theme/refresh-altcha.sh            the version pinned in theme/package-lock.json
#   theme/refresh-altcha.sh 2.4.0      pin another version (rewrites package.json and package-lock.json too)
#
# Writes theme/theme-resources/resources/abuse-gate/altcha.js (the package's dist/altcha.i18n.js),
# altcha.LICENSE.txt (its LICENSE.txt) and altcha.vendored.properties (version, tarball integrity,
# sha256 of each vendored file). VendoredAltchaTest checks all three against package-lock.json, so a
# hand-edited widget or a lockfile that moved without a refresh fails the unit tests.
# Only this script needs npm; the Maven build needs a JDK alone.
set -euo pipefail

THEME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$THEME/theme-resources/resources/abuse-gate"
cd "$THEME"

if [ $# -gt 0 ]; then
  # Updates package.json and package-lock.json only (no node_modules, no install scripts).
  npm install --package-lock-only --ignore-scripts --save-exact --no-audit --no-fund "altcha@$1" >/dev/null
fi

# The pinned version and the tarball integrity, read from the lockfile with node (installed with npm).
read -r VERSION LOCKED <<<"$(node -e '
  const p = require("./package-lock.json").packages["node_modules/altcha"];
  if (!p) { console.error("package-lock.json pins no altcha"); process.exit(1); }
  console.log(p.version + " " + p.integrity);')"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
npm pack "altcha@$VERSION" --pack-destination "$WORK" --silent >/dev/null
TARBALL="$WORK/altcha-$VERSION.tgz"
ACTUAL="sha512-$(openssl dgst -sha512 -binary "$TARBALL" | base64 -w0)"
if [ "$ACTUAL" != "$LOCKED" ]; then
  echo "altcha-$VERSION.tgz has integrity $ACTUAL, package-lock.json expects $LOCKED; nothing written" >&2
  exit 1
fi
tar -xzf "$TARBALL" -C "$WORK"

mkdir -p "$OUT"
cp "$WORK/package/dist/altcha.i18n.js" "$OUT/altcha.js"
cp "$WORK/package/LICENSE.txt" "$OUT/altcha.LICENSE.txt"
cat >"$OUT/altcha.vendored.properties" <<EOF
# Written by theme/refresh-altcha.sh; checked by VendoredAltchaTest. Do not edit by hand.
# altcha.js is dist/altcha.i18n.js and altcha.LICENSE.txt is LICENSE.txt from the npm tarball below.
package=altcha
version=$VERSION
tarball.integrity=$LOCKED
altcha.js.sha256=$(sha256sum "$OUT/altcha.js" | cut -d' ' -f1)
altcha.LICENSE.txt.sha256=$(sha256sum "$OUT/altcha.LICENSE.txt" | cut -d' ' -f1)
EOF
echo "Vendored altcha $VERSION into ${OUT#"$THEME/"}"
