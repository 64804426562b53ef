#!/usr/bin/env python3
"""A loopback HTTP server for bootbench's http tests: a small OCI registry
(anonymous bearer-token flow, manifests, indexes, errors; an image's history:
tags listed page by page, config blobs, one sent from a "CDN") and a
notification sink. Standard library only.

It binds 127.0.0.1 only, on ports the kernel picks, and prints on stdout:
    PORT <n>     the server
    DEAD <n>     a socket that accepts connections and never answers
    CLOSED <n>   a port nobody listens on (connections are refused)
    TLS <n>      the same server over https, with a self-signed certificate
                 for IP 127.0.0.1 made by openssl(1) at start (0: no openssl)
    CA <path>    that certificate (PEM), for clients that are told to trust it
    READY
Every request is appended to --log as one JSON line {method, path, headers,
body}. It stops when stdin closes (its parent is gone), after --max-seconds,
or after --max-requests, whichever comes first.
"""
import argparse
import hashlib
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
SERVICE = "fake-registry"


def digest(body):
    return "sha256:" + hashlib.sha256(body).hexdigest()


def image_manifest(media_type, arch):
    config = {"mediaType": "application/vnd.oci.image.config.v1+json",
              "digest": digest(arch.encode()), "size": len(arch)}
    return json.dumps({"schemaVersion": 2, "mediaType": media_type, "config": config,
                       "layers": []}, sort_keys=True).encode()


def index_of(media_type, entry_type, manifests):
    entries = [{"mediaType": entry_type, "digest": digest(body), "size": len(body),
                "platform": platform} for platform, body in manifests]
    return json.dumps({"schemaVersion": 2, "mediaType": media_type, "manifests": entries},
                      sort_keys=True).encode()


AMD64 = image_manifest(OCI_MANIFEST, "amd64")
ARM64 = image_manifest(OCI_MANIFEST, "arm64")
ATTESTATION = image_manifest(OCI_MANIFEST, "attestation")
INDEX = index_of(OCI_INDEX, OCI_MANIFEST, [
    ({"os": "linux", "architecture": "amd64"}, AMD64),
    ({"os": "linux", "architecture": "arm64", "variant": "v8"}, ARM64),
    ({"os": "unknown", "architecture": "unknown"}, ATTESTATION)])
D_AMD64 = image_manifest(DOCKER_MANIFEST, "amd64")
D_ARM64 = image_manifest(DOCKER_MANIFEST, "arm64")
LIST = index_of(DOCKER_LIST, DOCKER_MANIFEST, [
    ({"os": "linux", "architecture": "amd64"}, D_AMD64),
    ({"os": "linux", "architecture": "arm64"}, D_ARM64)])
PLAIN = image_manifest(OCI_MANIFEST, "plain")

# repository -> (tag, content type, body); bodies are also served by digest.
REPOS = {
    "open/plain": ("v1", OCI_MANIFEST, PLAIN),
    "auth/index": ("stable", OCI_INDEX, INDEX),
    "quay/list": ("41", DOCKER_LIST, LIST),
    "nodigest/x": ("v1", OCI_MANIFEST, PLAIN),
    "baddigest/x": ("stable", OCI_INDEX, INDEX),
    "schema1/x": ("v1", "application/vnd.docker.distribution.manifest.v1+prettyjws", b"{}"),
    "slow/x": ("v1", OCI_MANIFEST, PLAIN),
    "escdigest/x": ("v1", OCI_MANIFEST, PLAIN),
}
NEEDS_TOKEN = {"auth/index", "quay/list", "private/x", "denied/x", "badtoken/x", "baddigest/x",
               "hist/os", "elsewhere/x"}
WRONG_DIGEST = "sha256:" + "0" * 64

# --- an image's history, for bisect over its registry builds ---------------
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json"
EMPTY_CONFIG = "application/vnd.oci.empty.v1+json"
BLOBS = {}  # digest -> the bytes served for it


def config_blob(created, labels, arch="amd64"):
    config = {"architecture": arch, "os": "linux", "rootfs": {"type": "layers", "diff_ids": []},
              "config": {"Labels": labels}}
    if created:
        config["created"] = created
    return json.dumps(config, sort_keys=True).encode()


def build_manifest(config, manifest_type=OCI_MANIFEST, config_type=OCI_CONFIG, served=None):
    """An image manifest naming `config`; its blob serves `served` (else `config`)."""
    BLOBS[digest(config)] = config if served is None else served
    ref = {"mediaType": config_type, "digest": digest(config), "size": len(config)}
    return json.dumps({"schemaVersion": 2, "mediaType": manifest_type, "config": ref,
                       "layers": []}, sort_keys=True).encode()


def oci_version(v):
    return {"org.opencontainers.image.version": v, "org.opencontainers.image.title": "os"}


H1101 = build_manifest(config_blob("2026-11-01T04:10:00Z", oci_version("43.20261101.0")))
# A Docker image with the plain "version" label only.
H1108 = build_manifest(config_blob("2026-11-08T04:10:00.123456789Z", {"version": "43.20261108.0"}),
                       DOCKER_MANIFEST, DOCKER_CONFIG)
# Its config blob comes through a 307 to /cdn/ (registries send blobs from a CDN).
H1115_CONFIG = config_blob("2026-11-15T04:10:00+00:00", oci_version("43.20261115.0"))
H1115 = build_manifest(H1115_CONFIG)
# A multi-architecture build: pinned by its index digest.
H1122_AMD64 = build_manifest(config_blob("2026-11-22T04:10:00Z", oci_version("43.20261122.0")))
H1122_ARM64 = build_manifest(config_blob("2026-11-22T04:30:00Z", oci_version("43.20261122.0"),
                                         "arm64"))
H1122 = index_of(OCI_INDEX, OCI_MANIFEST, [
    ({"os": "linux", "architecture": "amd64"}, H1122_AMD64),
    ({"os": "linux", "architecture": "arm64", "variant": "v8"}, H1122_ARM64)])
# No created time, no labels.
H1129 = build_manifest(config_blob(None, None))
# A cosign-style signature: an artifact with an empty config, not a build.
SIGNATURE = build_manifest(b"{}", config_type=EMPTY_CONFIG)
SIGNATURE_TAG = "sha256-" + hashlib.sha256(H1101).hexdigest() + ".sig"
# A config blob whose bytes are not the ones its digest names.
BADBLOB_CONFIG = config_blob("2026-11-01T00:00:00Z", oci_version("1"))
BADBLOB_SERVED = config_blob("2026-11-01T00:00:00Z", oci_version("2"))
BADBLOB = build_manifest(BADBLOB_CONFIG, served=BADBLOB_SERVED)
REDIRECTED_BLOBS = {digest(H1115_CONFIG)}

# repository -> tag -> (content type, body); their bodies are served by digest too.
TAGGED = {
    "hist/os": {
        "stable-20261101": (OCI_MANIFEST, H1101),
        "stable-20261108": (DOCKER_MANIFEST, H1108),
        "stable-20261115": (OCI_MANIFEST, H1115),
        "stable-20261122": (OCI_INDEX, H1122),
        "stable-20261129": (OCI_MANIFEST, H1129),
        "latest": (OCI_MANIFEST, H1129),
        SIGNATURE_TAG: (OCI_MANIFEST, SIGNATURE),
    },
    "badblob/os": {"v1": (OCI_MANIFEST, BADBLOB)},
}
BY_DIGEST = {digest(b): (t, b) for t, b in [
    (OCI_MANIFEST, AMD64), (OCI_MANIFEST, ARM64), (OCI_MANIFEST, ATTESTATION),
    (OCI_INDEX, INDEX), (DOCKER_MANIFEST, D_AMD64), (DOCKER_MANIFEST, D_ARM64),
    (DOCKER_LIST, LIST), (OCI_MANIFEST, PLAIN), (OCI_MANIFEST, H1122_AMD64),
    (OCI_MANIFEST, H1122_ARM64)] + [t for tags in TAGGED.values() for t in tags.values()]}

# tags/list answers that are no tag list, or a list without tags.
TAG_LISTS = {
    "badtags/x": b'{"name":"badtags/x","tags":["v1",7]}',
    "notags/x": b'{"name":"notags/x","tags":null}',
}
# Tags a page, whatever `n` asks: a registry may send fewer than asked.
PAGE_SIZE = 3


class Server(ThreadingHTTPServer):
    daemon_threads = True
    scheme = "http"

    def __init__(self, log_path, max_requests):
        super().__init__(("127.0.0.1", 0), Handler)
        self.log_path = log_path
        self.max_requests = max_requests
        self.lock = threading.Lock()
        self.count = 0
        self.flaky = {}

    def record(self, entry):
        with self.lock:
            self.count += 1
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            return self.count <= self.max_requests

    def handle_error(self, request, client_address):
        # A client that gave up (the timeout tests) is expected, not news.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)

    def flaky_failures(self, key):
        with self.lock:
            self.flaky[key] = self.flaky.get(key, 0) + 1
            return self.flaky[key]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self.handle_any()

    def do_HEAD(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def send(self, status, body=b"", headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        entry = {"method": self.command, "path": self.path, "headers": dict(self.headers.items()),
                 "body": body.decode("utf-8", "replace")}
        if not self.server.record(entry):
            self.send(503, b"request limit reached")
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return
        query = urllib.parse.parse_qs(url.query)
        for prefix, route in ROUTES:
            m = re.fullmatch(prefix, url.path)
            if m:
                return route(self, m, query, body)
        self.send(404, b'{"errors":[{"code":"NOT_FOUND"}]}')

    # --- registry ---------------------------------------------------------
    def base(self):
        return "%s://127.0.0.1:%d" % (self.server.scheme, self.server.server_address[1])

    def challenge(self, repo):
        if repo == "basic/x":
            return 'Basic realm="fake"'
        return 'Bearer realm="%s/token",service="%s",scope="repository:%s:pull"' % (
            self.base(), SERVICE, repo)

    def token(self, m, query, body):
        scope = query.get("scope", [""])[0]
        repo = scope[len("repository:"):-len(":pull")] if scope.endswith(":pull") else ""
        if query.get("service") != [SERVICE] or not repo:
            return self.send(400, b'{"errors":[{"code":"BAD_REQUEST"}]}')
        if repo == "denied/x":
            return self.send(403, b'{"errors":[{"code":"DENIED"}]}')
        if repo == "badtoken/x":
            return self.send(200, b"<html>oops</html>", {"Content-Type": "text/html"})
        key = "access_token" if repo == "quay/list" else "token"
        self.send(200, json.dumps({key: "tok-" + repo}).encode(), {"Content-Type": "application/json"})

    def manifest(self, m, query, body):
        repo, ref = m.group(1), m.group(2)
        if repo == "broken/x":
            return self.send(500, b'{"errors":[{"code":"UNKNOWN"}]}')
        if repo == "ratelimited/x":
            return self.send(429, b'{"errors":[{"code":"TOOMANYREQUESTS"}]}')
        if repo == "redirect/x":
            return self.send(307, headers={"Location": "/v2/open/plain/manifests/" + ref})
        if not self.authorized(repo):
            return
        if repo == "slow/x":
            time.sleep(3)
        self.serve_manifest(repo, ref)

    def authorized(self, repo):
        """Answers 401 with a challenge, and is False, when `repo` wants a token not sent."""
        if repo in NEEDS_TOKEN or repo == "basic/x":
            if repo in ("private/x", "basic/x") or \
                    self.headers.get("Authorization") != "Bearer tok-" + repo:
                self.send(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                          {"WWW-Authenticate": self.challenge(repo)})
                return False
        return True

    def serve_manifest(self, repo, ref):
        if repo in TAGGED:
            found = TAGGED[repo].get(ref) or BY_DIGEST.get(ref)
            if not found:
                return self.send(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}')
            return self.send(200, found[1], {"Content-Type": found[0],
                                             "Docker-Content-Digest": digest(found[1])})
        tag, ctype, body = REPOS.get(repo, (None, None, None))
        if ref == tag:
            pass
        elif ref in BY_DIGEST and repo in REPOS:
            ctype, body = BY_DIGEST[ref]
        elif repo == "baddigest/x" and ref == WRONG_DIGEST:
            pass
        else:
            return self.send(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}')
        headers = {"Content-Type": ctype}
        if repo == "baddigest/x":
            headers["Docker-Content-Digest"] = WRONG_DIGEST
        elif repo == "escdigest/x":  # terminal escapes: a title change, a screen clear
            headers["Docker-Content-Digest"] = "sha256:\x1b]0;pwned\x07\x1b[2J"
        elif repo != "nodigest/x":
            headers["Docker-Content-Digest"] = digest(body)
        self.send(200, body, headers)

    def tags(self, m, query, body):
        """n and last as the spec has them, PAGE_SIZE at most, a Link to the next page."""
        repo = m.group(1)
        json_type = {"Content-Type": "application/json"}
        if repo == "elsewhere/x" and "last" in query:  # the page on "another host" wants no token
            return self.send(200, b'{"name":"elsewhere/x","tags":["b"]}', json_type)
        if not self.authorized(repo):
            return
        if repo == "elsewhere/x":  # its next page is on another host name of this server
            link = '<http://localhost:%d/v2/elsewhere/x/tags/list?last=a>; rel="next"' % (
                self.server.server_address[1])
            return self.send(200, b'{"name":"elsewhere/x","tags":["a"]}', dict(json_type, Link=link))
        if repo in TAG_LISTS:
            return self.send(200, TAG_LISTS[repo], json_type)
        if repo == "endless/x":  # every page names itself again as the next, absolutely
            return self.send(200, b'{"name":"endless/x","tags":["again"]}',
                             {"Link": '<%s%s>; rel="next"' % (self.base(), self.path)})
        if repo not in TAGGED:
            return self.send(404, b'{"errors":[{"code":"NAME_UNKNOWN"}]}')
        n = min(int(query.get("n", [PAGE_SIZE])[0]), PAGE_SIZE)
        last = query.get("last", [""])[0]
        after = [t for t in sorted(TAGGED[repo]) if t > last]
        headers = dict(json_type)
        if len(after) > n:
            headers["Link"] = '</v2/%s/tags/list?n=%d&last=%s>; rel="next"' % (
                repo, n, urllib.parse.quote(after[n - 1]))
        self.send(200, json.dumps({"name": repo, "tags": after[:n]}).encode(), headers)

    def blob(self, m, query, body):
        repo, ref = m.group(1), m.group(2)
        if not self.authorized(repo):
            return
        if repo not in TAGGED or ref not in BLOBS:
            return self.send(404, b'{"errors":[{"code":"BLOB_UNKNOWN"}]}')
        if ref in REDIRECTED_BLOBS:
            return self.send(307, headers={"Location": "%s/cdn/%s?sig=x" % (self.base(), ref)})
        self.send(200, BLOBS[ref], {"Content-Type": "application/octet-stream"})

    def cdn(self, m, query, body):
        if m.group(1) not in BLOBS:
            return self.send(404, b"no such object")
        self.send(200, BLOBS[m.group(1)], {"Content-Type": "application/octet-stream"})

    # --- generic ----------------------------------------------------------
    def redirect(self, m, query, body):
        to = query.get("to", ["/"])[0]
        host = query.get("host", ["127.0.0.1"])[0]
        port = int(query.get("port", [self.server.server_address[1]])[0])
        self.send(302, headers={"Location": "http://%s:%d%s" % (host, port, to)})

    def redirect_loop(self, m, query, body):
        self.send(302, headers={"Location": "/redirect-loop"})

    def echo(self, m, query, body):
        out = {"method": self.command, "headers": dict(self.headers.items()),
               "body": body.decode("utf-8", "replace")}
        self.send(200, json.dumps(out).encode(), {"Content-Type": "application/json"})

    def digests(self, m, query, body):
        names = {"index": INDEX, "amd64": AMD64, "arm64": ARM64, "list": LIST,
                 "list_amd64": D_AMD64, "list_arm64": D_ARM64, "plain": PLAIN,
                 "hist_1122_amd64": H1122_AMD64, "hist_1122_arm64": H1122_ARM64}
        for repo, tags in TAGGED.items():
            names.update({repo + ":" + tag: body for tag, (_, body) in tags.items()})
        out = {k: digest(v) for k, v in names.items()}
        out.update({"signature_tag": SIGNATURE_TAG, "badblob_config": digest(BADBLOB_CONFIG),
                    "badblob_served": digest(BADBLOB_SERVED)})
        self.send(200, json.dumps(out).encode(), {"Content-Type": "application/json"})

    def big(self, m, query, body):
        self.send(200, b"x" * (9 << 20))

    def slow(self, m, query, body):
        time.sleep(float(query.get("s", ["3"])[0]))
        self.send(200, b"late")

    # --- notification sink -----------------------------------------------
    def notify(self, m, query, body):
        kind = m.group(1)
        if kind == "fail":
            return self.send(500, b"server error")
        if kind == "404":
            return self.send(404, b"no such topic")
        if kind == "slow":
            time.sleep(5)
        if kind == "flaky":
            fails = int(query.get("fails", ["2"])[0])
            if self.server.flaky_failures(self.path) <= fails:
                return self.send(503, b"try later")
        if kind == "echo-auth":
            # ?status=403&pad=N&encode=url|json: how a hostile server may echo it
            auth = self.headers.get("Authorization", "")
            encode = query.get("encode", [""])[0]
            if encode == "url":
                auth = urllib.parse.quote(auth, safe="")
            elif encode == "json":
                auth = json.dumps({"auth": auth})
            pad = b"." * int(query.get("pad", ["0"])[0])
            status = int(query.get("status", ["401"])[0])
            return self.send(status, pad + b"unauthorized: " + auth.encode())
        self.send(200, b'{"id":"ok"}', {"Content-Type": "application/json"})


ROUTES = [
    (r"/token", Handler.token),
    (r"/v2/(.+)/manifests/([^/]+)", Handler.manifest),
    (r"/v2/(.+)/tags/list", Handler.tags),
    (r"/v2/(.+)/blobs/([^/]+)", Handler.blob),
    (r"/cdn/([^/]+)", Handler.cdn),
    (r"/redirect", Handler.redirect),
    (r"/redirect-loop", Handler.redirect_loop),
    (r"/echo", Handler.echo),
    (r"/big", Handler.big),
    (r"/digests", Handler.digests),
    (r"/slow", Handler.slow),
    (r"/notify-?([a-z0-9-]*)/[A-Za-z0-9_-]+", Handler.notify),
]


def tls_server(log, max_requests, directory):
    cert = os.path.join(directory, "cert.pem")
    key = os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    server = Server(log, max_requests)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.scheme = "https"
    return server, cert


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--max-seconds", type=float, default=300)
    ap.add_argument("--max-requests", type=int, default=2000)
    args = ap.parse_args()

    server = Server(args.log, args.max_requests)
    try:
        tls, ca = tls_server(args.log, args.max_requests, os.path.dirname(os.path.abspath(args.log)))
        threading.Thread(target=tls.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    except (OSError, subprocess.SubprocessError) as e:
        # Only the https tests need it; they fail saying why, the others run.
        print("fake_registry.py: no https server: %s" % e, file=sys.stderr)
        tls, ca = None, "-"
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    dead.listen(16)  # never accepted: connections complete, nothing answers
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()

    def stop_when_stdin_closes():
        sys.stdin.buffer.read()
        server.shutdown()
        if tls:
            tls.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    deadline = threading.Timer(args.max_seconds, server.shutdown)
    deadline.daemon = True
    deadline.start()
    print("PORT %d" % server.server_address[1])
    print("DEAD %d" % dead.getsockname()[1])
    print("CLOSED %d" % closed_port)
    print("TLS %d" % (tls.server_address[1] if tls else 0))
    print("CA %s" % ca)
    print("READY", flush=True)
    server.serve_forever(poll_interval=0.1)
    server.server_close()
    dead.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
