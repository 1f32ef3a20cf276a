# syntax=docker/dockerfile:1
# HKI Global Admin: build stage (full install, web app + server bundle), then a small runtime stage
# with production dependencies only, as a non-root user, data on a volume. See README "Deploying".

FROM node:26-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt binaries for this platform; the toolchain is the fallback.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# The web app (dist/web) and the server bundle (dist/server/main.js), then drop dev dependencies.
RUN npm run build && npm prune --omit=dev

FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/admin.sqlite \
    MAIL_DIR=/data/mail \
    SEED_DEMO=false
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# /backups: where `node dist/server/main.js db:backup /backups/FILE` writes (a volume in compose.yaml).
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
VOLUME ["/data"]
EXPOSE 3000
# Readiness: the database answers and every migration has run (GET /api/ready).
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The bundle itself (what `npm start` runs once the build is present): no npm, no tsx, no build tools.
# The operator's commands run the same entry: `docker run --rm … hki-admin node dist/server/main.js db:migrate`
# (and db:backup FILE, db:restore FILE, user:create …): compose.yaml runs db:migrate before the panel.
CMD ["node", "--max-old-space-size=1024", "dist/server/main.js"]
