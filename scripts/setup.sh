#!/usr/bin/env bash
# Installs what cuzk needs to build and test, and only what is missing, so it is
# cheap to run before every build: Debian packages through apt-get, and the
# Node.js test oracles (snarkjs, @noble/curves) from the committed package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and libclang-rt-dev (compiler-rt's libFuzzer) build the readers' fuzz targets (tests/fuzz).
# gRPC, protobuf, prometheus-cpp, toml11 and spdlog build cuzkd and the gRPC clients (proto/, src/daemon);
# python3-grpcio and python3-grpc-tools run the Python example client against it (tests/client).
# valgrind checks libcuzk for leaks over many create/prove/destroy cycles (tests/capi).
# libpq-dev and libssl-dev build the job queue (src/queue); postgresql is the server its tests start.
# openssl makes the certificate of the client's TLS test.
# chromium opens cuzkd's status page in the browser test; prometheus brings promtool, which checks
# the alert rules and the Grafana dashboard's queries (packaging/prometheus, packaging/grafana).
packages=(cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev libgmp-dev
          nlohmann-json3-dev libcli11-dev clang libclang-rt-dev
          libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
          prometheus-cpp-dev libtoml11-dev libspdlog-dev python3-grpcio python3-grpc-tools
          valgrind libpq-dev postgresql libssl-dev openssl chromium prometheus)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# @noble/curves 2.x needs Node >= 20.19.
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js >= 20 is required for the test oracles (found $(node --version))" >&2
  exit 1
fi

# npm ci only when package-lock.json changed since the last install here.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.cuzk-lock-hash 2>/dev/null)" != "$lock_hash" ]; then
  echo "setup: installing node packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.cuzk-lock-hash
fi
