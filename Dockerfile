# syntax=docker/dockerfile:1
# One image for every process of the app: the API (default command), the worker and the marketplace
# sandbox, all compiled JavaScript run by plain Node 24. compose.yaml shows them together.
#   docker build -t price-lookup-dashboard .
#   docker run -e DATABASE_URL=postgres://… -e SECRET_KEY=… -p 8000:8000 price-lookup-dashboard

# --- manifests: the package files alone, so the installs below rerun only when they change ------------
FROM node:24-bookworm-slim AS manifests
WORKDIR /src
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY backend/package.json backend/
COPY frontend/package.json frontend/

# --- build: every dependency, the frontend (Vite) and the backend (esbuild) builds --------------------
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: the backend's production dependencies only (no dev tools, no frontend packages, no npm Node) ---
FROM manifests AS deps
RUN npm ci --omit=dev --workspace=@app/backend --no-audit --no-fund \
 && npm cache clean --force

# --- runtime ------------------------------------------------------------------------------------------
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=deps /src/node_modules ./node_modules
# backend/package.json says the bundles are ES modules ("type": "module").
COPY backend/package.json backend/
COPY --from=build /src/backend/dist backend/dist
# The API serves the built frontend from ../../frontend/dist, seen from backend/dist.
COPY --from=build /src/frontend/dist frontend/dist
# DATA_DIR holds the email outbox when SMTP_HOST is unset; it belongs to the user the app runs as.
RUN mkdir -p /app/data && chown node:node /app/data
# The `node` user of the official image (uid 1000), never root.
USER node
EXPOSE 8000
# Liveness of the API (worker and sandbox containers turn it off or replace it: see compose.yaml).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/api/v1/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "backend/dist/main.js"]
