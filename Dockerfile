# nochmal in a container: the app as `nochmal serve` runs it, from the same wheel as `pipx install`
# (issue 45, item 6). Not built in CI: the tests build and install the wheel itself
# (tests/browser/test_browser_wheel.py), not this image.
#
#   docker build -t nochmal .
#   docker run --rm -p 8501:8501 -v nochmal-data:/data nochmal
#
# Then open http://localhost:8501. The owner code for the settings is in the container's log
# (`docker logs <container>`): a browser reaching the container through a published port is another
# device to it, so it asks for the code. User sheets and tableaus, the game store and the compiled
# bots' cache live in the /data volume, so they outlast the container.

# --- the wheel, built from the sdist as `python -m build` does (the same path the tests take)
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir "build>=1.2" && python -m build --outdir /dist .

# --- the app: the wheel installed with its dependencies, run by an unprivileged user
FROM python:3.11-slim
COPY --from=wheel /dist/*.whl /tmp/
RUN pip install --no-cache-dir /tmp/nochmal-*.whl && rm /tmp/nochmal-*.whl \
    && useradd --create-home --uid 1000 nochmal \
    && mkdir /data && chown nochmal:nochmal /data
USER nochmal
# NOCHMAL_HOME: user sheets, tableaus and co-op sets; NOCHMAL_DB: the game store;
# NUMBA_CACHE_DIR: the bots' compiled kernels (about a minute to compile on a first start)
ENV NOCHMAL_HOME=/data NOCHMAL_DB=/data/games.sqlite3 NUMBA_CACHE_DIR=/data/cache/numba PYTHONUNBUFFERED=1
VOLUME /data
WORKDIR /data
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
CMD ["nochmal", "serve", "--host", "0.0.0.0", "--port", "8501"]
