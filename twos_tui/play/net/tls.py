"""Encrypted joins: the host's TLS certificate and the client's pinned fingerprints.

The host serves ``wss``. Unless it is given a real certificate (``--cert``/``--key``),
it makes a self-signed one at its first start and keeps it in the data directory
(:data:`TLS_DIR`, the key at mode 0600), so the fingerprint friends pin stays the same
from one start to the next. The fingerprint is the SHA-256 of the certificate, written
as ssh writes its keys' (``SHA256:`` and base64): short enough to compare by eye.

A client that joins an address for the first time accepts a self-signed certificate and
pins its fingerprint per ``host:port`` in :data:`KNOWN_HOSTS_FILE` (mode 0600), as ssh
does with ``known_hosts``; later joins compare and refuse a changed one. A certificate
that the system's authorities vouch for (for the name joined) needs no pin: it is
checked the ordinary way, and the address is remembered as such, so a self-signed one
shown there later is refused too.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from ..paths import data_dir

TLS_DIR = "tls"
CERT_FILE = "host-cert.pem"
KEY_FILE = "host-key.pem"
KNOWN_HOSTS_FILE = "known-hosts"
#: a known-hosts entry for an address whose certificate an authority vouched for
VERIFIED = "verified"


def fingerprint(der: bytes) -> str:
    """``SHA256:`` and the base64 of the certificate's SHA-256 (as ssh shows keys)."""
    digest = hashlib.sha256(der).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def pem_fingerprint(cert_pem: bytes) -> str:
    """The fingerprint of the first certificate of a PEM file's text."""
    return fingerprint(ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii")))


@dataclass(frozen=True)
class HostCert:
    """The certificate a host serves: its files, its fingerprint, and whether it was
    made here (self-signed: friends pin it) or given (``--cert``: an authority's)."""

    cert: Path
    key: Path
    fingerprint: str
    self_signed: bool

    def context(self) -> ssl.SSLContext:
        """The server's TLS context (TLS 1.2 at least). ValueError with the reason when
        the files cannot be used."""
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            ctx.load_cert_chain(self.cert, self.key)
        except (OSError, ssl.SSLError) as e:
            why = getattr(e, "strerror", None) or str(e)
            text = f"cannot use the certificate {self.cert} with {self.key}: {why}"
            raise ValueError(text) from None
        return ctx


def host_cert(cert: str | None = None, key: str | None = None) -> HostCert:
    """The host's certificate: ``cert``/``key`` (PEM files) when given, else the one made
    at the first start and kept in the data directory. ValueError / OSError with the
    reason."""
    if cert is not None or key is not None:
        if cert is None or key is None:
            raise ValueError("--cert and --key go together (the certificate and its key)")
        cert_path, key_path = Path(cert), Path(key)
        try:
            text = cert_path.read_bytes()
            fp = pem_fingerprint(text)
        except (ValueError, UnicodeDecodeError):
            raise ValueError(f"{cert[:200]!r} is not a PEM certificate") from None
        found = HostCert(cert_path, key_path, fp, self_signed=False)
        found.context()  # the pair can be used: said now, not at the first join
        return found
    folder = data_dir() / TLS_DIR
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    if not (cert_path.exists() and key_path.exists()):
        make_self_signed(cert_path, key_path)
    return HostCert(cert_path, key_path, pem_fingerprint(cert_path.read_bytes()), True)


def make_self_signed(cert_path: Path, key_path: Path) -> None:
    """A new key (ECDSA P-256, written at mode 0600) and a self-signed certificate for
    it (valid 20 years: what friends check is the pinned fingerprint, not a date)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "twos-tui table host")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=20 * 365))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    cert_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write_private(key_path, key_pem)
    _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM), mode=0o644)


def _write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` whole (a temporary file renamed over ``path``), created at ``mode``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


# ----- the client's side ---------------------------------------------------------------------
def verifying_context(cafile: str | None = None) -> ssl.SSLContext:
    """Ordinary verification: the system's authorities (or ``cafile``), and the name."""
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    return ctx


def pinning_context() -> ssl.SSLContext:
    """Any certificate is let through the handshake: the caller compares its fingerprint
    with the pinned one before sending anything."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def address_key(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class KnownHosts:
    """The fingerprints pinned per ``host:port``: one line each, ``ADDRESS FINGERPRINT``
    (or ``ADDRESS verified``), in the data directory at mode 0600. A line of another
    shape is left out when read (and dropped at the next write)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / KNOWN_HOSTS_FILE

    def read(self) -> dict[str, str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return {}
        out: dict[str, str] = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and (parts[1].startswith("SHA256:") or parts[1] == VERIFIED):
                out[parts[0]] = parts[1]
        return out

    def get(self, host: str, port: int) -> str | None:
        return self.read().get(address_key(host, port))

    def put(self, host: str, port: int, value: str | None) -> None:
        """Pin ``value`` for the address (``None``: forget it)."""
        data = self.read()
        key = address_key(host, port)
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(f"{k} {v}\n" for k, v in data.items())
        _write_private(self.path, text.encode("utf-8"))


def changed_message(host: str, port: int, pinned: str, shown: str, path: Path) -> str:
    """What a player is told when the host shows another certificate than the pinned."""
    where = address_key(host, port)
    if pinned == VERIFIED:
        was = "a certificate signed by a known authority"
    else:
        was = f"the certificate {pinned}"
    return (
        f"Not joined: the host at {where} now shows the certificate {shown}, "
        f"but when you joined before it showed {was}. Someone may be listening in between. "
        "Ask the host which fingerprint their screen shows; if it is the new one (they "
        f"made a new certificate), forget the old one with `twos-tui join {where} --forget` "
        f"(or delete the line for {where} in {path}) and join again."
    )
