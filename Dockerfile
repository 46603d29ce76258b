# alarm-hub: compiled JavaScript on Node 20, run as a non-root user, healthy when /readyz says so.
# Build: docker build -t alarm-hub .   Run it with deploy/compose.yaml (MongoDB, Redis, two processes,
# nginx in front) or give it MONGODB_URI and REDIS_URL yourself.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=optional
COPY tsconfig.json tsconfig.build.json ./
COPY schemas schemas
COPY common common
COPY server server
COPY display-client display-client
COPY console console
COPY members-app members-app
RUN npm run build && npm prune --omit=dev --omit=optional

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
# The alarm inputs read PDFs (poppler) and faxes and scans by OCR in German (docs/inputs.md "Documents").
RUN apt-get update \
  && apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-deu \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The application stays root's, read-only to the service; the volume /data is the one place it writes
# (the secrets key file without SECRETS_KEY, the embedded database without MONGODB_URI).
# test/container-start.test.ts starts the compiled service the same way.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
RUN mkdir -m 0700 /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Ready means the database answers (Redis down only degrades the hub; see docs/operating.md).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server/main.js"]
