"""The tests' stand-in for a real store's signature check: a reverse proxy in front of moto.

moto's server (5.x) checks no signature of a pre-signed (query-string) URL: its auth mode
(INITIAL_NO_AUTH_ACTION_COUNT) reads only an `Authorization` header (moto/iam/
access_control.py, `IAMRequestBase.__init__` indexes `headers["Authorization"]`), so a URL
whose key was edited, or a request signed by nobody, is served. AWS S3, MinIO and Ceph RGW
refuse those. So the hostile tests talk to this proxy (real HTTP), which, before it forwards a
request to moto unchanged, recomputes its SigV4 signature with botocore's own code and the
test credentials, the way a store does:

- a query-signed request (a pre-signed URL): the canonical request from the method, the path
  as sent, every query parameter but `X-Amz-Signature`, the headers named in
  `X-Amz-SignedHeaders` and `UNSIGNED-PAYLOAD`; refused when it is past
  `X-Amz-Date + X-Amz-Expires` (403 AccessDenied "Request has expired");
- a header-signed request (boto3 with keys): the same from its `Authorization` header and the
  `X-Amz-Content-SHA256` it declares (the payload's hash itself is not checked here);
- anything else (no signature at all): 403 AccessDenied.

A wrong access key id is 403 InvalidAccessKeyId; a signature that does not match is
403 SignatureDoesNotMatch, with S3's XML error body. Nothing else differs from moto.
"""

from __future__ import annotations

import atexit
import functools
import hmac
import http.client
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

CHUNK = 2**20
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade"}


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str


def _signed_headers(names: str, headers: dict[str, str]) -> dict[str, str] | None:
    """The request's headers that the signature names; None when one of them is missing."""
    wanted = [name for name in names.split(";") if name]
    lowered = {key.lower(): value for key, value in headers.items()}
    if any(name not in lowered for name in wanted):
        return None
    return {name: lowered[name] for name in wanted}


def _compare(
    auth: S3SigV4Auth, method: str, url: str, headers: dict[str, str], timestamp: str, given: str
) -> Refusal | None:
    request = AWSRequest(method=method, url=url, headers=headers)
    request.context["timestamp"] = timestamp
    canonical = auth.canonical_request(request)
    expected = auth.signature(auth.string_to_sign(request, canonical), request)
    if hmac.compare_digest(expected, given):
        return None
    return Refusal(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
    )


def _scope(credential: str, access_key: str) -> tuple[str, str] | Refusal:
    """(date, region) of a credential scope `AK/date/region/s3/aws4_request`."""
    parts = credential.split("/")
    if len(parts) != 5 or parts[3] != "s3" or parts[4] != "aws4_request":
        return Refusal("AuthorizationQueryParametersError", f"malformed credential {credential}")
    if parts[0] != access_key:
        return Refusal("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist.")
    return parts[1], parts[2]


def check_query_signature(
    method: str,
    target: str,
    headers: dict[str, str],
    credentials: Credentials,
    now: datetime | None = None,
) -> Refusal | None:
    """A pre-signed URL's request (`target`: path and query as sent): None when it holds."""
    path, _, query = target.partition("?")
    params = dict(parse_qsl(query, keep_blank_values=True))
    scope = _scope(params.get("X-Amz-Credential", ""), credentials.access_key)
    if isinstance(scope, Refusal):
        return scope
    signed = _signed_headers(params.get("X-Amz-SignedHeaders", ""), headers)
    if signed is None or params.get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256":
        return Refusal("SignatureDoesNotMatch", "a signed header is missing from the request")
    timestamp = params.get("X-Amz-Date", "")
    try:
        signed_at = datetime.strptime(timestamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        expires = timedelta(seconds=int(params.get("X-Amz-Expires", "")))
    except ValueError:
        return Refusal("AuthorizationQueryParametersError", "malformed X-Amz-Date or Expires")
    if (now or datetime.now(UTC)) > signed_at + expires:
        return Refusal("AccessDenied", "Request has expired")
    unsigned = "&".join(
        pair for pair in query.split("&") if not pair.startswith("X-Amz-Signature=")
    )
    url = f"http://{signed.get('host', '')}{path}?{unsigned}"
    auth = S3SigV4QueryAuth(credentials, "s3", scope[1])
    return _compare(auth, method, url, signed, timestamp, params.get("X-Amz-Signature", ""))


def check_header_signature(
    method: str, target: str, headers: dict[str, str], credentials: Credentials
) -> Refusal | None:
    """A request signed in its `Authorization` header (SigV4): None when it holds."""
    authorization = headers.get("Authorization", "")
    fields = dict(
        part.strip().split("=", 1)
        for part in authorization.removeprefix("AWS4-HMAC-SHA256 ").split(",")
        if "=" in part
    )
    scope = _scope(fields.get("Credential", ""), credentials.access_key)
    if isinstance(scope, Refusal):
        return scope
    signed = _signed_headers(fields.get("SignedHeaders", ""), headers)
    if signed is None or "x-amz-content-sha256" not in signed:
        return Refusal("SignatureDoesNotMatch", "a signed header is missing from the request")
    signed["X-Amz-Content-SHA256"] = signed.pop("x-amz-content-sha256")
    url = f"http://{signed.get('host', '')}{target}"
    auth = S3SigV4Auth(credentials, "s3", scope[1])
    timestamp = signed.get("x-amz-date", "")
    return _compare(auth, method, url, signed, timestamp, fields.get("Signature", ""))


def check_signature(
    method: str, target: str, headers: dict[str, str], credentials: Credentials
) -> Refusal | None:
    """What a SigV4 store decides about a request: None to serve it, else why it refuses."""
    if "X-Amz-Signature=" in urlsplit(target).query:
        return check_query_signature(method, target, headers, credentials)
    if headers.get("Authorization", "").startswith("AWS4-HMAC-SHA256 "):
        return check_header_signature(method, target, headers, credentials)
    return Refusal("AccessDenied", "Access Denied (the request is not signed)")


def refusal_xml(refusal: Refusal) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<Error><Code>{refusal.code}</Code><Message>{refusal.message}</Message></Error>"
    ).encode()


def _handler(upstream: str, credentials: Credentials) -> type[BaseHTTPRequestHandler]:
    host, _, port = urlsplit(upstream).netloc.partition(":")

    class Verifying(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _body(self) -> bytes:
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                parts = []
                while size := int(self.rfile.readline().split(b";")[0].strip(), 16):
                    parts.append(self.rfile.read(size))
                    self.rfile.readline()
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _serve(self) -> None:
            body = self._body()
            headers = {key: value for key, value in self.headers.items()}
            refusal = check_signature(self.command, self.path, headers, credentials)
            if refusal is not None:
                payload = b"" if self.command == "HEAD" else refusal_xml(refusal)
                self.send_response(403)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            forwarded = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
            forwarded["Content-Length"] = str(len(body))
            forwarded.pop("Expect", None)
            connection = http.client.HTTPConnection(host, int(port), timeout=120)
            try:
                connection.request(self.command, self.path, body=body, headers=forwarded)
                response = connection.getresponse()
                data = response.read()
                self.send_response(response.status, response.reason)
                for key, value in response.getheaders():
                    if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                        self.send_header(key, value)
                length = response.getheader("Content-Length")
                self.send_header("Content-Length", length if self.command == "HEAD" and length
                                 else str(len(data)))  # fmt: skip
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
            finally:
                connection.close()

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _serve  # noqa: N815

    return Verifying


def start_verifying_proxy(upstream: str, access_key: str, secret_key: str) -> str:
    """A signature-checking proxy on a free port of 127.0.0.1 in front of `upstream`; its URL."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), _handler(upstream, Credentials(access_key, secret_key))
    )
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="s3-signatures").start()
    atexit.register(server.shutdown)
    return f"http://127.0.0.1:{server.server_address[1]}"


@functools.cache
def signing_store_url(upstream: str, access_key: str, secret_key: str) -> str:
    """One proxy per (upstream, credentials) and process."""
    return start_verifying_proxy(upstream, access_key, secret_key)
