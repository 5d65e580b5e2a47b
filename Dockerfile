# syntax=docker/dockerfile:1
# Arbiter: the Discord bot and CLI in a small image.
#   docker build -t arbiter .
#   docker run -p 8080:8080 -e DISCORD_PUBLIC_KEY=… -v arbiter-data:/data arbiter            # HTTP interactions
#   docker run -e DISCORD_TOKEN=… -e ARBITER_HEALTH_LISTEN=0.0.0.0:8080 -v arbiter-data:/data arbiter serve   # gateway
# See docs/DISCORD.md.

# Rust 1.89 or newer (Cargo.toml's rust-version).
FROM rust:1-slim-bookworm AS build
WORKDIR /src
# Only what the binary is built from: rules_data is not here, so editing
# the rules never rebuilds the binary (it is copied into the runtime stage).
COPY Cargo.toml Cargo.lock ./
COPY src ./src
# The workspace's crates (the core, store, app, bot, the sentence encoder).
COPY crates ./crates
# The font pictures are drawn in, compiled into the binary (with its licence).
COPY assets ./assets
# Cargo.toml names the benches and the test kit they use.
COPY benches ./benches
COPY tests/discord_kit ./tests/discord_kit
# BuildKit caches keep the registry and the build directory between builds.
# Not stripped: the release profile keeps line tables for backtraces.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin arbiter \
    && cp target/release/arbiter /arbiter

FROM debian:bookworm-slim AS runtime
# TLS roots are compiled in (rustls + webpki-roots): no packages needed.
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin arbiter \
    && mkdir -p /data && chown arbiter /data
WORKDIR /app
COPY --from=build /arbiter /usr/local/bin/arbiter
COPY rules_data /app/rules_data
# The semantic stage's model (found under ./models from /app).
COPY models /app/models

# Configuration (docs/DISCORD.md). Secrets (DISCORD_TOKEN, DISCORD_PUBLIC_KEY)
# are given at run time, never baked in.
ENV ARBITER_DATA=/app/rules_data \
    ARBITER_LOG_FORMAT=json \
    DATABASE_URL=sqlite:///data/arbiter.db \
    RUST_LOG=info,serenity=warn
# ARBITER_DRAIN_TIMEOUT  seconds shutdown waits for interactions in flight
#                        (8: with 1 s to exit, within `docker stop`'s 10 s)
# ARBITER_MAX_CONNECTIONS open HTTP connections at most (1024; keep the
#                        open-files limit above it: --ulimit nofile=65536)
# DISCORD_TOKEN          bot token (gateway: `arbiter serve`)
# DISCORD_PUBLIC_KEY     application public key, hex (HTTP: `arbiter serve --http`)
# DISCORD_GUILD_ID       register commands to one guild (development)
# ARBITER_HEALTH_LISTEN  with the gateway, serve GET /healthz here
# ARBITER_METRICS_LISTEN serve GET /metrics here (off by default; never on the
#                        public endpoint: publish it on a private network only)
# ARBITER_INDEX_CACHE_MB memory for servers' rule-set indexes (512)
# Uploaded documents are converted by a child process of this same binary
# (`arbiter __convert-document`) under memory, CPU and time limits.

VOLUME ["/data"]
EXPOSE 8080
USER arbiter
# SIGTERM: stop accepting, finish interactions in flight (ARBITER_DRAIN_TIMEOUT,
# 8 s), exit within docker stop's default 10 s grace period.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["arbiter", "healthcheck"]
ENTRYPOINT ["arbiter"]
CMD ["serve", "--http", "0.0.0.0:8080"]
