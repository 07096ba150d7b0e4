#!/usr/bin/env bash
# Builds, with podman and without Docker Hub, the images compose.yaml names:
#   docker.io/library/node:20-bookworm-slim  a stand-in for the official base: a Debian bookworm
#                                            minbase (debootstrap) with this machine's Node.js 20,
#                                            npm and corepack, and the `node` user (uid/gid 1000)
#   docker.io/library/redis:7                the same base with Debian's redis-server 7
#   keel-apiserver, keel-scheduler           apps/*/Dockerfile, unchanged, on that base
# The debootstrap tree is cached as a tarball (KEEL_CONTAINER_CACHE, default ~/.cache/keel-containers);
# the base images are rebuilt only when their recipe's revision, the host's Node.js or the CA
# bundle change (and redis:7 when its Containerfile does), and podman's layer cache keeps the Keel
# images' build stage while the sources are unchanged.
# Used by test/containers/images.test.ts (`pnpm test:containers`); see docs/operations.md.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache="${KEEL_CONTAINER_CACHE:-$HOME/.cache/keel-containers}"
# The Debian mirror this machine's apt uses (deb822 or one-line sources), unless given.
mirror="${KEEL_DEBIAN_MIRROR:-$(
  {
    sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources
    sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list
  } 2>/dev/null | grep -v security | head -1 || true
)}"
base=docker.io/library/node:20-bookworm-slim
redis=docker.io/library/redis:7
# Containers reach the registries the way this machine does: through its resolver and CA bundle.
cafile="${KEEL_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
mkdir -p "$cache"

# Where the kernel offers cgroup v1 and v2 side by side (this machine), crun refuses to start a
# container ("cgroups in hybrid mode not supported"): runc does not. Without CAP_SYS_RESOURCE podman's
# default limits (nofile 1048576) cannot be set: the containers get the host's hard limits
# instead (nproc at most 32768, what podman lowers itself to). Builds and runs share this file.
nofile="$(ulimit -Hn)"
nproc="$(ulimit -Hu)"
[ "$nofile" = unlimited ] && nofile=1048576
{ [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
cat >"$cache/containers.conf.part" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "${KEEL_PODMAN_RUNTIME:-runc}"
CONF
mv "$cache/containers.conf.part" "$cache/containers.conf"
export CONTAINERS_CONF="$cache/containers.conf"

step() { printf '[build-images %s] %s\n' "$(date -u +%T)" "$*"; }

node_bin="$(readlink -f "$(command -v node)")"
node_modules="$(dirname "$(dirname "$node_bin")")/lib/node_modules"
[ -d "$node_modules/npm" ] && [ -d "$node_modules/corepack" ] || {
  echo "build-images: npm and corepack not found beside $node_bin (in $node_modules)" >&2
  exit 1
}
# Bump when the base's recipe below changes: a new base invalidates the Keel images' layer cache.
base_revision=1
stamp="$(
  {
    echo "$base_revision"
    sha256sum "$node_bin" "$cafile" | cut -d' ' -f1
    "$node_bin" --version
  } | sha256sum | cut -c1-16
)"

rootfs_tar="$cache/bookworm-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  [ -n "$mirror" ] || {
    echo "build-images: no Debian mirror found in /etc/apt/sources*; set KEEL_DEBIAN_MIRROR" >&2
    exit 1
  }
  command -v debootstrap >/dev/null || {
    echo "build-images: debootstrap is not installed (apt-get install debootstrap) and $rootfs_tar is absent" >&2
    exit 1
  }
  step "debootstrap --variant=minbase bookworm from $mirror"
  tmp="$(mktemp -d "$cache/rootfs.XXXXXX")"
  debootstrap --variant=minbase bookworm "$tmp/root" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    tail -20 "$cache/debootstrap.log" >&2
    rm -rf "$tmp"
    exit 1
  }
  rm -rf "$tmp/root/var/cache/apt/archives/"*.deb "$tmp/root/var/lib/apt/lists/"*
  tar -C "$tmp/root" --numeric-owner -cf "$rootfs_tar.part" .
  mv "$rootfs_tar.part" "$rootfs_tar"
  rm -rf "$tmp"
fi

current_stamp() { podman image inspect --format '{{ index .Labels "keel.base" }}' "$1" 2>/dev/null || true; }

if [ "$(current_stamp "$base")" != "$stamp" ]; then
  step "base image $base (Node.js $("$node_bin" --version))"
  tmp="$(mktemp -d "$cache/base.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  tar -C "$tmp" --numeric-owner -xf "$rootfs_tar"
  # As the official image lays it out: node, npm, npx and corepack in /usr/local.
  install -D -m 0755 "$node_bin" "$tmp/usr/local/bin/node"
  mkdir -p "$tmp/usr/local/lib/node_modules"
  cp -a "$node_modules/npm" "$node_modules/corepack" "$tmp/usr/local/lib/node_modules/"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$tmp/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$tmp/usr/local/bin/npx"
  ln -sf ../lib/node_modules/corepack/dist/corepack.js "$tmp/usr/local/bin/corepack"
  install -D -m 0644 "$cafile" "$tmp/etc/ssl/certs/ca-certificates.crt"
  chroot "$tmp" /usr/sbin/groupadd --gid 1000 node
  chroot "$tmp" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$tmp" --numeric-owner -cf - . |
    podman import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV NODE_VERSION='"$("$node_bin" --version | tr -d v)" \
      --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
      --change "LABEL keel.base=$stamp" \
      --change 'CMD ["node"]' \
      - "$base" >/dev/null
  rm -rf "$tmp"
  trap - EXIT
fi

mkdir -p "$cache/redis-context"
# The official image starts as root and drops to `redis`; this one is `redis` from the start,
# with /data owned by it (a new named volume takes the image directory's owner). Like the
# official build (which patches the default), redis-server runs with protected mode off: other
# containers reach it over the network without a password.
cat >"$cache/redis-context/entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
if [ "$1" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
ENTRYPOINT
cat >"$cache/redis-context/Containerfile" <<CONTAINERFILE
FROM $base
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data
COPY --chmod=0755 entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER redis
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
CONTAINERFILE
redis_stamp="$(cat <(echo "$stamp") "$cache/redis-context/"* | sha256sum | cut -c1-16)"
if [ "$(current_stamp "$redis")" != "$redis_stamp" ]; then
  step "redis image $redis"
  podman build --network=host --label "keel.base=$redis_stamp" -t "$redis" "$cache/redis-context"
fi

for app in apiserver scheduler; do
  step "keel-$app from apps/$app/Dockerfile"
  podman build --network=host -t "keel-$app" -f "apps/$app/Dockerfile" .
  # The build stage, tagged so that pruning below keeps it as the next run's layer cache (the
  # layers are the ones just built: this costs a cache lookup).
  podman build --network=host --target build -t "keel-$app-build" -f "apps/$app/Dockerfile" . >/dev/null
done
# Untagged images are what earlier runs built and this one replaced (about 1 GB each time).
podman image prune -f >/dev/null
step done
