# The Tessera registry. Build: docker build -t tessera-registry .   Run: see docker-compose.yml.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# isolated-vm ships prebuilt binaries for linux-x64; the toolchain is there for other platforms.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci runs the build-when-stale step (`prepare`), which builds nothing before the sources are copied.
COPY scripts ./scripts
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/demo ./demo
# Never root: tenant code runs in isolates, and the process that hosts them has no privileges either.
USER node
EXPOSE 3030
# Ready, not only alive: the sandbox hosts answer and the replica is not draining.
HEALTHCHECK --interval=5s --timeout=2s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3030/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: /readyz turns 503, in-flight requests finish, the process exits 0.
STOPSIGNAL SIGTERM
# With every one of the registry's Node flags (src/node-flags.ts): bin/tessera.js then runs the
# registry in this process; with one missing, it would start a second Node process to add it.
CMD ["node", "--no-node-snapshot", "--max-semi-space-size=16", "--heap-growing-percent=50", "--no-allocation-site-pretenuring", "bin/tessera.js", "start"]
