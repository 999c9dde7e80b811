"""The app's per-install identity for the lobby: an Ed25519 key made at first use and
kept in the data directory (:data:`KEY_FILE`, mode 0600, refused when others may read
it, as ssh refuses such a key), and its public fingerprint (``SHA256:`` and base64, as
ssh shows keys).

The lobby proves a name belongs to a key by challenge and response: the server sends a
fresh nonce (:class:`~.wire.Challenge`), the app signs :func:`signed_bytes` of it and
sends its public key and the signature (:class:`~.wire.Login`); the server checks the
signature (:func:`verify`) and knows the account by the key's fingerprint.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import stat
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..paths import data_dir

KEY_FILE = "lobby-key.pem"
#: what is signed: this prefix, then the nonce (so a signature is good for nothing else)
SIGNED_PREFIX = b"twos-tui lobby login v1\n"


class IdentityError(ValueError):
    """The key cannot be used (or a signature is not good); ``str()`` says why."""


def fingerprint(public_raw: bytes) -> str:
    digest = hashlib.sha256(public_raw).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def new_nonce() -> str:
    return base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def signed_bytes(nonce: str) -> bytes:
    return SIGNED_PREFIX + nonce.encode("ascii", "replace")


class Identity:
    """This install's key (made at first use)."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.key = key
        self.public_raw = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_raw)

    @property
    def public_b64(self) -> str:
        return base64.b64encode(self.public_raw).decode("ascii")

    def sign(self, nonce: str) -> str:
        return base64.b64encode(self.key.sign(signed_bytes(nonce))).decode("ascii")

    @classmethod
    def load(cls, path: Path | None = None) -> Identity:
        """The key at ``path`` (default: the data directory's), made now if there is
        none. :class:`IdentityError` when it is readable by others or not a key."""
        path = path or data_dir() / KEY_FILE
        if not path.exists():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
            return cls(key)
        mode = stat.S_IMODE(path.stat().st_mode)
        if os.name == "posix" and mode & 0o077:
            raise IdentityError(
                f"Your lobby key {path} can be read by others (mode {mode:o}): "
                f"make it yours alone with `chmod 600 {path}`, or delete it to make a new one "
                "(you would lose your name)."
            )
        try:
            loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (ValueError, TypeError, OSError) as e:
            raise IdentityError(f"Your lobby key {path} cannot be read ({e}).") from None
        if not isinstance(loaded, Ed25519PrivateKey):
            raise IdentityError(f"Your lobby key {path} is not an Ed25519 key.")
        return cls(loaded)


def verify(public_b64: str, nonce: str, sig_b64: str) -> str:
    """The fingerprint of ``public_b64`` if ``sig_b64`` is its signature of ``nonce``;
    :class:`IdentityError` otherwise."""
    try:
        raw = base64.b64decode(public_b64, validate=True)
        sig = base64.b64decode(sig_b64, validate=True)
        Ed25519PublicKey.from_public_bytes(raw).verify(sig, signed_bytes(nonce))
    except (ValueError, InvalidSignature):
        raise IdentityError("That key's signature does not match: log in again.") from None
    return fingerprint(raw)
