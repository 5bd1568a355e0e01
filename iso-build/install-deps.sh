#!/usr/bin/env bash
# Installs the Debian packages the image build needs (iso-build/prerequisites.txt), only those missing.
# `npm run iso:deps` and .ci/run both call this, so the list lives in one place.
set -euo pipefail
list="$(dirname "$0")/prerequisites.txt"
need=()
while read -r kind what package; do
  case "$kind" in
    command) command -v "$what" >/dev/null 2>&1 || need+=("$package") ;;
    path) [ -e "$what" ] || need+=("$package") ;;
  esac
done < <(grep -v '^\s*\(#\|$\)' "$list")
if [ ${#need[@]} -eq 0 ]; then
  echo "image build prerequisites: all present"
  exit 0
fi
mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
