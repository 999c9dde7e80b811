"""The lobby's name rules (issue 30): what a name may be, reserved names, and look-alike
names caught by their skeleton."""

from __future__ import annotations

import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twos_tui.play.lobby.identity_names import (
    MAX_CELLS,
    NameRefused,
    check_name,
    skeleton,
    width,
)
from twos_tui.play.lobby.store import SqliteStore
from twos_tui.play.session import AI_NAMES


@pytest.mark.parametrize(
    "name",
    [
        "Al",
        "Alice",
        "mary ann",
        "x_y-z.w",
        "R2D2",
        "Zoë",
        "Ñandú",
        "Ольга",
        "Σοφία",
        "日本語",
        "語",
        "李小龙",
        "1234",
        "A" * 16,
        "語" * 8,
    ],
)
def test_good_names_pass_unchanged(name):
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("  Alice  ", "Alice"),
        ("Mary    Ann", "Mary Ann"),
        ("Zoe\u0308", "Zoë"),  # combining diaeresis: kept composed (NFC)
    ],
)
def test_names_are_tidied(name, kept):
    assert check_name(name) == kept


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "choose a name"),
        ("   ", "choose a name"),
        ("A", "at least 2"),
        ("A" * 17, "at most 16"),
        ("語" * 9, "at most 16"),  # 18 cells
        ("bad\x1bname", "letters, digits"),
        ("tab\there", "letters, digits"),
        ("new\nline", "letters, digits"),
        ("zero\u200bwidth", "letters, digits"),
        ("rtl\u202eevil", "letters, digits"),
        ("[bold]x", "letters, digits"),
        ("a@b", "letters, digits"),
        ("smile😀", "letters, digits"),
        ("\ud800ab", "letters, digits"),  # a lone surrogate
        ("ab\ue000", "letters, digits"),  # private use
        ("---", "at least one letter or digit"),
        ("\u0301\u0301ab", "Accents"),
        ("a\u0301\u0302\u0303\u0304b", "Accents"),
        ("Pаul", "mix alphabets"),  # Cyrillic а
        ("Αlex", "mix alphabets"),  # Greek Α
        ("Ada", "belongs to one of the AI players"),
        ("ADA", "belongs to one of the AI players"),
        ("Ad a", "belongs to one of the AI players"),
        ("F1nn", "belongs to one of the AI players"),
        ("guest-12", "kept for guests"),
        ("Guest", "kept for guests"),
        ("gue5t", "kept for guests"),
        ("admin", "kept for the server"),
        ("Adm1n", "kept for the server"),
        ("SERVER", "kept for the server"),
        ("host", "kept for the server"),
    ],
)
def test_broken_or_reserved_names_are_refused_with_a_sentence(name, why):
    with pytest.raises(NameRefused, match=why) as e:
        check_name(name)
    assert str(e.value) == e.value.reason
    assert e.value.reason[0].isupper() and e.value.reason.endswith((".", "another."))
    assert isinstance(e.value, ValueError)


def test_every_ai_name_is_reserved():
    for name in AI_NAMES:
        with pytest.raises(NameRefused):
            check_name(name)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Alice", "alice"),
        ("Alice", "ALICE"),
        ("Alice", "A1ice"),
        ("Alice", "AIice"),  # capital i for l
        ("Alice", "Al.ice"),
        ("Alice", "A_l-i ce"),
        ("Alice", "Alicé"),
        ("Alice", "Ａｌｉｃｅ"),  # fullwidth
        ("Alice", "\U0001d400lice"),  # mathematical bold A
        ("Alice", "Аlicе"),  # Cyrillic А and е
        ("Bob", "B0b"),
        ("Bob", "Вов"),  # Cyrillic
        ("modem", "rnodern"),
        ("Will", "VVill"),
        ("Dan", "cIan"),
        ("Oslo", "0s1o"),
        ("Kappa", "Κappa"),  # Greek Κ
        ("Sam", "5am"),
        ("Tom", "Τοm"),  # Greek Τ ο
    ],
)
def test_look_alikes_share_a_skeleton(a, b):
    assert skeleton(a) == skeleton(b)


@pytest.mark.parametrize(
    ("a", "b"), [("Bob", "Rob"), ("Alice", "Alicia"), ("Ann", "Anne"), ("Dan", "Don")]
)
def test_different_names_have_different_skeletons(a, b):
    assert skeleton(a) != skeleton(b)


def test_width_counts_cells():
    assert width("Alice") == 5
    assert width("語語") == 4
    assert width("Zoe\u0308") == 3
    assert width("A" * MAX_CELLS) == MAX_CELLS


_DROP = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@settings(max_examples=300)
@given(
    names=st.lists(
        st.one_of(
            st.text(max_size=30),
            st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
            st.sampled_from(["Alice", "A1ice", "alice", "Ada", "guest-1", "Аlice", "Bob", "B0b"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_claim_name_returns_an_account_or_refuses_in_a_sentence(names):
    with tempfile.TemporaryDirectory() as d, SqliteStore(Path(d) / "lobby.db") as store:
        claimed = {}
        for n, name in enumerate(names):
            key = f"SHA256:k{n}"
            try:
                acct = store.claim_name(name, key)
            except NameRefused as e:
                reason = str(e)
                assert reason and reason[0].isupper() and reason.rstrip().endswith(".")
                assert all(unicodedata.category(c) not in _DROP for c in reason)
                assert store.account_for_key(key) is None
                continue
            assert acct.key == key and not acct.guest
            assert all(unicodedata.category(c) not in _DROP for c in acct.name)
            assert acct.name == check_name(acct.name)  # the stored name is a clean one
            assert 2 <= width(acct.name) <= MAX_CELLS
            claimed[acct.name] = key
        # no two stored accounts look alike
        skels = [skeleton(n) for n in claimed]
        assert len(skels) == len(set(skels))
        rows = store._conn.execute("SELECT name FROM accounts").fetchall()
        assert sorted(r[0] for r in rows) == sorted(claimed)
