"""CLI tests (run in-process)."""

import io
import runpy
import sys

import pytest

from markdown_parser.cli import main


class FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_file_argument(tmp_path, capsysbinary):
    source = tmp_path / "doc.md"
    source.write_text("# Café\n\ntext", encoding="utf-8")
    assert main([str(source)]) == 0
    assert capsysbinary.readouterr().out == "<h1>Café</h1>\n<p>text</p>\n".encode()


@pytest.mark.parametrize("argv", [[], ["-"]])
def test_stdin(monkeypatch, capsysbinary, argv):
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"*hi*"))
    assert main(argv) == 0
    assert capsysbinary.readouterr().out == b"<p><em>hi</em></p>\n"


def test_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "nope.md")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")


def test_module_entry_point(tmp_path, monkeypatch, capsysbinary):
    source = tmp_path / "doc.md"
    source.write_text("---", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["markdown_parser", str(source)])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("markdown_parser", run_name="__main__")
    assert info.value.code == 0
    assert capsysbinary.readouterr().out == b"<hr />\n"
