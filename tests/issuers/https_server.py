"""An HTTPS server for the did:web tests (run as a process:
`python https_server.py PORT CERT_PEM ROOT`).

GET /.well-known/did.json answers ROOT/redirect's text as a 302 Location when that file
exists, else ROOT/did.json's bytes, else 404: a test changes the answer by writing files.
"""

import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Handler(BaseHTTPRequestHandler):
    root: Path

    def do_GET(self):
        redirect, document = self.root / "redirect", self.root / "did.json"
        if self.path != "/.well-known/did.json":
            self.send_error(404)
        elif redirect.exists():
            self.send_response(302)
            self.send_header("Location", redirect.read_text())
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif document.exists():
            body = document.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port, cert, root = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    Handler.root = root
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print("ready", flush=True)
    server.serve_forever()
