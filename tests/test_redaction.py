"""Redaction finds each secret as written, in file names and link targets, and in its simple
encodings: reversed, hex, and base64 in both alphabets, padded or not, at every byte offset."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentbench.redaction import Secret, find_secrets, redact_text, redact_tree

KEY = "sk-ant-api03-Zx9~q?>>Lm_0042"  # '~', '?' and '>' make base64 use '+', '/', '-' and '_'
SECRETS = (Secret("ANTHROPIC_API_KEY", KEY),)
MARK = "[REDACTED:ANTHROPIC_API_KEY]"
ENCODERS = {"standard": base64.b64encode, "urlsafe": base64.urlsafe_b64encode}


def test_plain_reversed_hex_and_json_forms_are_redacted():
    raw = KEY.encode()
    for form in (KEY, KEY[::-1], raw.hex(), raw.hex().upper()):
        out = redact_text(f"before {form} after", SECRETS)
        assert out == f"before {MARK} after", form


def test_the_alphabets_differ_for_this_key():
    assert base64.b64encode(KEY.encode()) != base64.urlsafe_b64encode(KEY.encode())


@pytest.mark.parametrize("alphabet", sorted(ENCODERS))
@pytest.mark.parametrize("padded", [True, False])
def test_base64_of_the_secret_alone(alphabet, padded):
    text = ENCODERS[alphabet](KEY.encode()).decode()
    text = text if padded else text.rstrip("=")
    out = redact_text(f"token: {text}\n", SECRETS)
    assert out == f"token: {MARK}\n"


@pytest.mark.parametrize("alphabet", sorted(ENCODERS))
@pytest.mark.parametrize("prefix", [b"", b"A", b"AB", b"ABC", b"ABCD"])  # offsets 0, 1, 2, 0, 1
@pytest.mark.parametrize("suffix", [b"", b"!", b"!?", b"!?#"])
def test_base64_of_a_text_holding_the_secret_at_any_offset(alphabet, prefix, suffix):
    blob = ENCODERS[alphabet](b'{"key": "' + prefix + KEY.encode() + suffix + b'"}').decode()
    out = redact_text(blob, SECRETS)
    assert MARK in out
    left = out.replace(MARK, "\0")
    # what is left decodes to no more than 2 characters of the secret on either side of the marker
    assert not _holds_a_piece_of(left, KEY, 3)


def _holds_a_piece_of(text: str, key: str, size: int) -> bool:
    """Whether any base64 run of `text` (at any alignment) decodes to `size` consecutive key chars."""
    pieces = {key.encode()[i:i + size] for i in range(len(key) - size + 1)}
    for run in text.replace("-", "+").replace("_", "/").split("\0"):
        run = run.rstrip("=")
        for start in range(4):
            chunk = run[start:]
            chunk = chunk[: len(chunk) // 4 * 4]
            try:
                decoded = base64.b64decode(chunk)
            except ValueError:
                continue
            if any(piece in decoded for piece in pieces):
                return True
    return False


CONTROL_BYTES = st.binary(max_size=7).map(lambda b: bytes(c % 32 for c in b))
"""Neighbouring bytes that cannot be part of a secret drawn below (all its bytes are >= 33)."""


@settings(max_examples=60, deadline=None)
@given(secret=st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF), min_size=6, max_size=40),
       before=CONTROL_BYTES, after=CONTROL_BYTES, urlsafe=st.booleans())
def test_base64_embedding_never_leaves_four_secret_bytes(secret, before, after, urlsafe):
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    blob = encode(before + secret.encode() + after).decode()
    out = redact_text(blob, (Secret("X_TOKEN", secret),))
    assert "[REDACTED:X_TOKEN]" in out
    assert not _holds_a_piece_of(out.replace("[REDACTED:X_TOKEN]", "\0"), secret, 4)


def test_short_and_unnamed_values_are_left_alone():
    found = find_secrets({"API_KEY": "abc", "HOME": "/root/very-long-path", "GH_TOKEN": "ghp_123456"})
    assert [s.name for s in found] == ["GH_TOKEN"]
    assert redact_text("abc /root/very-long-path", found) == "abc /root/very-long-path"


def test_tree_contents_names_and_link_targets_are_redacted(tmp_path: Path):
    root = tmp_path / "trial"
    folder = root / f"dir-{KEY}"
    folder.mkdir(parents=True)
    (folder / f"{KEY}.txt").write_text(f"plain {KEY}\nb64 {base64.b64encode(KEY.encode()).decode()}\n")
    (root / f"rev-{KEY[::-1]}").write_text("nothing secret inside\n")
    (root / "hexdump").write_text(KEY.encode().hex())
    (root / "link").symlink_to(f"/nonexistent/{KEY}")
    (root / f"link-{KEY}").symlink_to("hexdump")
    (root / "odd-\udcff-name").write_text(KEY)  # a name that is not valid UTF-8
    untouched = root / "clean.txt"
    untouched.write_text("nothing here\n")
    stamp = untouched.stat().st_mtime_ns

    changed = redact_tree(root, SECRETS)

    everything = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    assert not any(KEY in name or KEY[::-1] in name for name in everything)
    assert f"dir-{MARK}/{MARK}.txt" in everything and f"rev-{MARK}" in everything
    assert (root / f"dir-{MARK}" / f"{MARK}.txt").read_text() == f"plain {MARK}\nb64 {MARK}\n"
    assert (root / "hexdump").read_text() == MARK
    assert os.readlink(root / "link") == f"/nonexistent/{MARK}"
    assert os.readlink(root / f"link-{MARK}") == "hexdump"
    assert (root / "odd-\udcff-name").read_text() == MARK
    assert untouched.stat().st_mtime_ns == stamp
    assert changed == 8


def test_a_renamed_file_never_overwrites_another(tmp_path: Path):
    (tmp_path / f"a{KEY}").write_text("first")
    (tmp_path / f"a{MARK}").write_text("second")
    redact_tree(tmp_path, SECRETS)
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["first", "second"]
    assert (tmp_path / f"a{MARK}-1").read_text() == "first"


def test_a_database_urls_password_is_a_secret_as_written_and_decoded():
    from agentbench.redaction import url_secrets

    secrets = url_secrets("database URL", "postgresql://bench:s3cr%40t-pw@db.example:5432/results")
    assert {s.value for s in secrets} == {"s3cr%40t-pw", "s3cr@t-pw"}
    assert redact_text("connect s3cr@t-pw", secrets) == "connect [REDACTED:database URL password]"
    assert url_secrets("db", "postgresql://agentbench:agentbench@h/db") == ()  # the user name is shown anyway
    assert url_secrets("db", "postgresql://bench@h/db") == ()


def test_a_password_moves_out_of_the_command_line_and_back():
    from agentbench.cli.credentials import split_password, with_password

    stripped, password = split_password("postgresql://bench:pa:ss%40@h:5432/db")
    assert (stripped, password) == ("postgresql://bench@h:5432/db", "pa:ss%40")
    assert with_password(stripped, password) == "postgresql://bench:pa:ss%40@h:5432/db"
    assert split_password("results/agentbench.db") == ("results/agentbench.db", None)
