"""A static file server on 127.0.0.1 for the download tests, as an office's web server
would be: GET with one byte range (``Range: bytes=N-``, 206 and ``Content-Range``), an
ETag and ``If-Range``; and the faults a test asks for: the connection cut after some
bytes, a server that ignores Range, a pause between chunks, a callback as bytes go out
(to fill the kiosk's partition midway), TLS with a test CA."""

from __future__ import annotations

import hashlib
import http.server
import re
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Served:
    path: str
    range: str | None
    if_range: str | None
    status: int
    sent: int = 0


@dataclass
class Faults:
    cut_after: int | None = None        # close the connection after this many body bytes
    cut_times: int = 1                  # ... for this many responses
    ignore_range: bool = False
    pause: float = 0.0                  # seconds between chunks
    on_sent: Callable[[int], None] | None = None   # called with the bytes sent so far
    lie_length: int | None = None       # Content-Length to claim instead of the truth


@dataclass
class BundleServer:
    files: dict[str, bytes] = field(default_factory=dict)
    faults: Faults = field(default_factory=Faults)
    log: list[Served] = field(default_factory=list)
    tls: tuple[Path, Path] | None = None   # (certificate, key)

    def __post_init__(self) -> None:
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                owner._get(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if self.tls is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(str(self.tls[0]), str(self.tls[1]))
            self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @staticmethod
    def etag(data: bytes) -> str:
        return '"' + hashlib.sha256(data).hexdigest()[:16] + '"'

    def _get(self, h: http.server.BaseHTTPRequestHandler) -> None:
        name = h.path.lstrip("/")
        data = self.files.get(name)
        rng, if_range = h.headers.get("Range"), h.headers.get("If-Range")
        if data is None:
            self.log.append(Served(name, rng, if_range, 404))
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        tag = self.etag(data)
        start = 0
        found = re.fullmatch(r"bytes=(\d+)-", rng or "")
        use_range = found and not self.faults.ignore_range and (if_range in (None, tag))
        if use_range:
            start = int(found.group(1))
            if start >= len(data):
                self.log.append(Served(name, rng, if_range, 416))
                h.send_response(416)
                h.send_header("Content-Range", f"bytes */{len(data)}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            h.send_response(206)
            h.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            h.send_response(200)
        body = data[start:]
        served = Served(name, rng, if_range, 206 if use_range else 200)
        self.log.append(served)
        length = self.faults.lie_length if self.faults.lie_length is not None else len(body)
        h.send_header("Content-Length", str(length))
        h.send_header("ETag", tag)
        h.send_header("Accept-Ranges", "bytes")
        h.end_headers()
        cut = None
        if self.faults.cut_after is not None and self.faults.cut_times > 0:
            self.faults.cut_times -= 1
            cut = self.faults.cut_after
        step = 64 * 1024
        try:
            for offset in range(0, len(body), step):
                piece = body[offset:offset + step]
                if cut is not None and served.sent + len(piece) > cut:
                    piece = piece[:cut - served.sent]
                    h.wfile.write(piece)
                    served.sent += len(piece)
                    h.wfile.flush()
                    h.close_connection = True
                    h.connection.shutdown(2)  # the network drops: no more bytes
                    return
                h.wfile.write(piece)
                served.sent += len(piece)
                if self.faults.on_sent is not None:
                    self.faults.on_sent(served.sent)
                if self.faults.pause:
                    time.sleep(self.faults.pause)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            h.close_connection = True

    @property
    def bytes_sent(self) -> int:
        return sum(s.sent for s in self.log)
