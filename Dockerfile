# Atendi: the API (which also serves the web app) on Node 24. README "Run with Docker Compose".
#   docker build -t atendi .
#   docker run -p 8080:8080 -p 3000:3000 -v atendi-data:/data atendi

# --- build: every dependency, then the compiled API (apps/api/dist) and the web app (apps/web/dist)
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so a change of code alone reuses the installed dependencies.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY tsconfig*.json ./
COPY packages/shared packages/shared
COPY apps/api apps/api
COPY apps/web apps/web
RUN npm run build

# --- runtime: the API's production dependencies and the two builds, run as the unprivileged node user
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    WEB_PORT=3000 \
    DATA_DIR=/data \
    WEB_DIST=/app/apps/web/dist \
    SHUTDOWN_DRAIN_SECONDS=5
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --workspace apps/api --no-audit --no-fund \
 && npm cache clean --force \
 && mkdir -p /data && chown node:node /data
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
USER node
VOLUME ["/data"]
EXPOSE 8080 3000
# Ready (database, Redis, storage answer; not starting or draining): GET /health/ready.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (SHUTDOWN_DRAIN_SECONDS) and closes cleanly; node is PID 1 and handles it.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/api/dist/main.js"]
