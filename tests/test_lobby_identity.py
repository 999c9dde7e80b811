"""The install's lobby key: made at first use (mode 0600), the same key later, refused
when others may read it; a signature of the challenge is checked."""

from __future__ import annotations

import os
import stat

import pytest

from twos_tui.play.lobby.identity import (
    KEY_FILE,
    Identity,
    IdentityError,
    fingerprint,
    new_nonce,
    verify,
)


def test_the_key_is_made_once_at_mode_0600(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    first = Identity.load()
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Identity.load()
    assert again.fingerprint == first.fingerprint
    assert first.fingerprint.startswith("SHA256:") and len(first.fingerprint) == 50
    assert fingerprint(first.public_raw) == first.fingerprint


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_key_others_may_read_is_refused(tmp_path) -> None:
    path = tmp_path / "k.pem"
    Identity.load(path)
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        Identity.load(path)


def test_a_damaged_key_is_said(tmp_path) -> None:
    path = tmp_path / "k.pem"
    path.write_text("nope")
    os.chmod(path, 0o600)
    with pytest.raises(IdentityError, match="cannot be read"):
        Identity.load(path)


def test_the_signature_proves_the_key(tmp_path) -> None:
    me = Identity.load(tmp_path / "a.pem")
    other = Identity.load(tmp_path / "b.pem")
    nonce = new_nonce()
    assert verify(me.public_b64, nonce, me.sign(nonce)) == me.fingerprint
    with pytest.raises(IdentityError):
        verify(me.public_b64, nonce, other.sign(nonce))  # another key's signature
    with pytest.raises(IdentityError):
        verify(me.public_b64, new_nonce(), me.sign(nonce))  # an old challenge
    with pytest.raises(IdentityError):
        verify("not base64!", nonce, me.sign(nonce))
    with pytest.raises(IdentityError):
        verify(me.public_b64[:-4], nonce, me.sign(nonce))
