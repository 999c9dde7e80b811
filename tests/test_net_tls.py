"""Encrypted joins (issue 30): the host serves ``wss`` with a certificate made once and
kept (key at mode 0600), prints its fingerprint; a client pins it on the first join to
an address (known-hosts file, mode 0600), refuses a changed one with a message that says
what to do, and ``join ADDRESS --forget`` forgets it. ``--cert/--key`` serve a real
certificate, checked against the authorities. Real sockets on 127.0.0.1 (this file's
ports: 47210-47229)."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import stat
from pathlib import Path

import pytest
from net_helpers import PLAYERS, live_server, play_match, remote_table
from textual.widgets import Input
from ui_helpers import wait_for, wait_for_screen

from twos_tui import cli
from twos_tui.play.net import tls as T
from twos_tui.play.net.client import JoinError, TableClient
from twos_tui.play.net.server import TableServer
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.join import JoinScreen
from twos_tui.ui.screens.table import TableScreen


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


def new_cert(folder: Path) -> T.HostCert:
    """Another host's self-signed certificate (as if it had made a new one)."""
    T.make_self_signed(folder / "cert.pem", folder / "key.pem")
    fp = T.pem_fingerprint((folder / "cert.pem").read_bytes())
    return T.HostCert(folder / "cert.pem", folder / "key.pem", fp, True)


async def joined(port: int, code: str, **kw) -> TableClient:
    c = TableClient("127.0.0.1", port, code, "Ana", retry_delays=(), **kw)
    await c.open()
    return c


def test_the_certificate_is_made_once_with_a_private_key(home):
    made = T.host_cert()
    assert made.self_signed and made.fingerprint.startswith("SHA256:")
    assert len(made.fingerprint) == len("SHA256:") + 43  # 32 bytes in base64, unpadded
    assert mode(made.key) == 0o600
    assert mode(made.key.parent) == 0o700
    assert made.key.parent == home / T.TLS_DIR
    again = T.host_cert()  # the next start: the same certificate, not a new one
    assert again.fingerprint == made.fingerprint
    assert again.cert.read_bytes() == made.cert.read_bytes()


async def test_a_join_over_tls_plays_and_pins_the_fingerprint(home):
    cert = T.host_cert()
    table = remote_table("twos", seed=2, autosave=False)
    async with live_server(cert=cert) as server:
        server.add(table)
        first = await joined(server.port, table.code)
        try:
            assert first.encrypted and first.uri.startswith("wss://")
            assert first.pinned_now == cert.fingerprint == first.fingerprint
            assert cert.fingerprint in first.security_line()
            assert "First join" in first.security_line()
        finally:
            await first.close()
        known = home / T.KNOWN_HOSTS_FILE
        assert known.read_text() == f"127.0.0.1:{server.port} {cert.fingerprint}\n"
        assert mode(known) == 0o600
        again = await joined(server.port, table.code)  # the pin matches: nothing new
        try:
            assert again.pinned_now is None and again.fingerprint == cert.fingerprint
        finally:
            await again.close()
        # a whole match, every seat over TLS (a table of its own: Ana's seat is held)
        match = server.add(remote_table("twos", seed=3, autosave=False))
        finals = await play_match(server, match)
        assert len(finals) == PLAYERS["twos"] and all(f.match_over for f in finals)


async def test_a_host_with_another_certificate_is_refused_until_forgotten(home, capsys):
    port = 47211
    table = remote_table("twos", seed=2, kinds=["remote", "ai", "ai"], autosave=False)
    server = TableServer(cert=T.host_cert())
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        c = await joined(port, table.code)
        await c.close()
    finally:
        await server.close()
    (home / "other").mkdir()
    other = new_cert(home / "other")
    pinned = T.host_cert().fingerprint
    assert other.fingerprint != pinned
    server = TableServer(cert=other)
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        seen: list[str] = []
        c = TableClient("127.0.0.1", port, table.code, "Ana", retry_delays=())
        c.raw_hook = seen.append
        with pytest.raises(JoinError) as refused:
            await c.open()
        text = str(refused.value)
        assert f"127.0.0.1:{port} now shows the certificate {other.fingerprint}" in text
        assert pinned in text and "Ask the host" in text
        assert f"twos-tui join 127.0.0.1:{port} --forget" in text
        assert seen == []  # refused before a word was said (no hello, no join)
        assert not table.conns
        # the command line says the same, and --forget lets the next join pin the new one
        bot = ["join", f"127.0.0.1:{port}", table.code, "--bot", "easy"]
        assert await asyncio.to_thread(cli.main, bot) == 2
        assert other.fingerprint in capsys.readouterr().err
        assert await asyncio.to_thread(cli.main, ["join", f"127.0.0.1:{port}", "--forget"]) == 0
        assert "Forgot the certificate" in capsys.readouterr().err
        assert T.KnownHosts().get("127.0.0.1", port) is None
        fresh = server.add(remote_table("twos", seed=4, kinds=["remote", "ai", "ai"]))
        c = await joined(port, fresh.code)
        assert c.pinned_now == other.fingerprint
        await c.close()
    finally:
        await server.close()


async def test_the_join_screen_shows_a_changed_certificate(home):
    port = 47212
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    T.KnownHosts().put("127.0.0.1", port, "SHA256:" + "A" * 43)  # pinned before
    server = TableServer(cert=T.host_cert())
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        app = make_app(autosave=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("j")
            screen = await wait_for_screen(pilot, JoinScreen)
            screen.query_one("#join-address", Input).value = f"127.0.0.1:{port}"
            screen.query_one("#join-code", Input).value = table.code
            screen.action_join()

            def shown() -> str:
                return str(screen.query_one("#join-error").render())

            await wait_for(pilot, lambda: "✗" in shown(), "the join refused")
            assert isinstance(app.screen, JoinScreen)
            text = " ".join(shown().split())
            assert "now shows the certificate" in text and "Ask the host" in text
            assert "--forget" in text
            assert not table.seats[1].claimed
    finally:
        await server.close()


async def test_the_join_screen_tells_the_fingerprint_it_pinned(home):
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    cert = T.host_cert()
    async with live_server(cert=cert) as server:
        server.add(table)
        app = make_app(autosave=False, ai_pause=None)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await pilot.press("j")
            screen = await wait_for_screen(pilot, JoinScreen)
            screen.query_one("#join-address", Input).value = f"127.0.0.1:{server.port}"
            screen.query_one("#join-code", Input).value = table.code
            screen.action_join()
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")

            def toasts() -> str:
                from textual.widgets._toast import Toast

                return " ".join(str(t.render()) for t in app.screen.query(Toast))

            await wait_for(pilot, lambda: "First join" in toasts(), "the pinned notice")
            assert cert.fingerprint in " ".join(toasts().split())
            assert T.KnownHosts().get("127.0.0.1", server.port) == cert.fingerprint
            await pilot.press("q")
            await pilot.press("y")
            await wait_for(pilot, lambda: not isinstance(app.screen, TableScreen), "home")


def make_ca_signed(folder: Path) -> tuple[Path, Path, Path]:
    """A test authority and a certificate it signed for 127.0.0.1: (ca, cert, key)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "twos-tui test authority")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    paths = folder / "ca.pem", folder / "host.pem", folder / "host-key.pem"
    paths[0].write_bytes(ca.public_bytes(pem))
    paths[1].write_bytes(leaf.public_bytes(pem))
    paths[2].write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


async def test_cert_and_key_serve_a_certificate_an_authority_signed(home):
    ca, cert_file, key_file = make_ca_signed(home)
    given = T.host_cert(str(cert_file), str(key_file))
    assert not given.self_signed
    assert not (home / T.TLS_DIR).exists()  # nothing made when a certificate is given
    port = 47213
    table = remote_table("twos", seed=2, kinds=["remote", "ai", "ai"], autosave=False)
    server = TableServer(cert=given)
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        c = await joined(port, table.code, cafile=str(ca))
        try:
            assert c.encrypted and c.verified and c.pinned_now is None
            assert c.fingerprint == given.fingerprint
            assert "known authority" in c.security_line()
        finally:
            await c.close()
        assert T.KnownHosts().get("127.0.0.1", port) == T.VERIFIED
    finally:
        await server.close()
    # the same address with a self-signed certificate: refused, not pinned
    (home / "other").mkdir()
    server = TableServer(cert=new_cert(home / "other"))
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        with pytest.raises(JoinError, match="signed by a known authority"):
            await joined(port, table.code, cafile=str(ca))
    finally:
        await server.close()


def test_cert_and_key_are_checked_at_start(home, capsys):
    ca, cert_file, key_file = make_ca_signed(home)
    with pytest.raises(ValueError, match="go together"):
        T.host_cert(str(cert_file), None)
    with pytest.raises(ValueError, match="not a PEM certificate"):
        T.host_cert(str(key_file), str(key_file))
    with pytest.raises(ValueError, match="cannot use the certificate"):
        T.host_cert(str(ca), str(key_file))  # the authority's, with the host's key
    args = ["host", "twos", "--headless", "--port", "47214", "--no-tls", "--cert", str(ca)]
    assert cli.main(args) == 2
    assert "--no-tls serves no certificate" in capsys.readouterr().err


async def test_an_unencrypted_host_is_joined_in_plain_unless_it_encrypted_before(home):
    port = 47215
    table = remote_table("twos", seed=2, kinds=["remote", "ai", "ai"], autosave=False)
    server = TableServer()  # --no-tls (or an older version of twos-tui)
    server.add(table)
    await server.start("127.0.0.1", port)
    try:
        c = await joined(port, table.code)
        try:
            assert c.encrypted is False and c.uri.startswith("ws://")
            assert "does not encrypt" in c.security_line()
        finally:
            await c.close()
        assert T.KnownHosts().get("127.0.0.1", port) is None
        T.KnownHosts().put("127.0.0.1", port, T.host_cert().fingerprint)
        with pytest.raises(JoinError, match="encrypted its table when you joined before"):
            await joined(port, table.code)
    finally:
        await server.close()


def test_the_host_prints_its_fingerprint_with_the_code(home):
    from twos_tui.net_cli import announce
    from twos_tui.ui.hosting import join_lines

    cert = T.host_cert()
    table = remote_table("twos", seed=2, autosave=False)
    server = TableServer(cert=cert, port=47216)
    lines = announce(table, server)
    assert any(table.code in line for line in lines)
    assert f"Encrypted (TLS). Certificate fingerprint: {cert.fingerprint}" in lines
    assert not any("not encrypted" in line for line in lines)
    shown = join_lines(table.code, "127.0.0.1", 47216, cert)
    assert f"  {cert.fingerprint}" in shown
    plain = join_lines(table.code, "0.0.0.0", 47216, None)
    assert any("Not encrypted" in line for line in plain)
    assert any("--no-tls" in line for line in announce(table, TableServer(port=47216)))
