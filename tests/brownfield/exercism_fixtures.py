"""A small Exercism-layout suite written by the tests (several tracks, the polyglot benchmark's
shape); nobody's exercises are bundled: these are made up here."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write


def exercise(track: Path, slug: str, files: dict[str, str], config: dict[str, list[str]],
             instructions: str, append: str | None = None) -> Path:
    folder = track / "exercises" / "practice" / slug
    for rel, text in files.items():
        write(folder / rel, text)
    write(folder / ".meta" / "config.json", json.dumps({"authors": ["test"], "files": config}))
    write(folder / ".docs" / "instructions.md", instructions)
    if append:
        write(folder / ".docs" / "instructions.append.md", append)
    return folder


def track_config(track: Path, difficulties: dict[str, int]) -> None:
    practice = [{"slug": s, "name": s, "uuid": s, "difficulty": d} for s, d in difficulties.items()]
    write(track / "config.json", json.dumps({"language": track.name, "exercises": {"practice": practice}}))


PY_TEST = '''\
import unittest

from two_fer import two_fer


class TwoFerTest(unittest.TestCase):
    def test_no_name_given(self):
        self.assertEqual(two_fer(), "One for you, one for me.")

    def test_a_name_given(self):
        self.assertEqual(two_fer("Alice"), "One for Alice, one for me.")
'''

GO_TEST = '''\
package reverse

import "testing"

func TestReverse(t *testing.T) {
\tfor _, c := range testCases {
\t\tif got := Reverse(c.input); got != c.expected {
\t\t\tt.Errorf("Reverse(%q) = %q, want %q", c.input, got, c.expected)
\t\t}
\t}
}
'''

GO_CASES = '''\
package reverse

var testCases = []struct {
\tinput, expected string
}{
\t{"", ""},
\t{"robot", "tobor"},
\t{"Ramen", "nemaR"},
}
'''

TS_TEST = '''\
import { describe, it, expect, xit } from '@jest/globals'
import { colorCode, COLORS } from './resistor-color'

describe('color code', () => {
  it('Black', () => {
    expect(colorCode('black')).toEqual(0)
  })

  xit('Orange', () => {
    expect(colorCode('orange')).toBe(3)
  })
})

describe('Colors', () => {
  xit('returns all colors', () => {
    expect(COLORS).toEqual(['black', 'brown', 'red', 'orange'])
    expect(COLORS).toHaveLength(4)
    expect(() => colorCode('pink')).toThrow('unknown color')
  })
})
'''

JS_TEST = '''\
import { convert } from './raindrops';

describe('Raindrops', () => {
  test('the sound for 1 is 1', () => {
    expect(convert(1)).toEqual('1');
  });

  xtest('the sound for 3 is Pling', () => {
    expect(convert(3)).toEqual('Pling');
  });

  xtest('the sound for 15 is PlingPlang', () => {
    expect(convert(15)).toEqual('PlingPlang');
    expect(convert(15)).not.toBe('Plang');
  });
});
'''


def make_suite(root: Path) -> Path:
    """Tracks python, go, typescript, javascript (convertible) and rust plus a jest-mock exercise
    (not convertible); returns root."""
    py = root / "python"
    track_config(py, {"two-fer": 1, "two-fer-append": 8})
    stub = 'def two_fer(name="you"):\n    pass\n'
    example = 'def two_fer(name="you"):\n    return f"One for {name}, one for me."\n'
    for slug in ("two-fer", "two-fer-append"):
        exercise(py, slug, {"two_fer.py": stub, "two_fer_test.py": PY_TEST, ".meta/example.py": example},
                 {"solution": ["two_fer.py"], "test": ["two_fer_test.py"], "example": [".meta/example.py"]},
                 "# Two-fer\n\nReturn `One for X, one for me.`\n",
                 "# Instructions append\n\nX defaults to `you`.\n" if slug.endswith("append") else None)
    go = root / "go"
    exercise(go, "reverse-string", {
        "go.mod": "module reverse\n\ngo 1.22\n", "reverse_string.go": "package reverse\n\nfunc Reverse(input string) string {\n\tpanic(\"Please implement the Reverse function\")\n}\n",
        "reverse_string_test.go": GO_TEST, "cases_test.go": GO_CASES,
        ".meta/example.go": "package reverse\n\nfunc Reverse(input string) string {\n\tr := []rune(input)\n\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n\t\tr[i], r[j] = r[j], r[i]\n\t}\n\treturn string(r)\n}\n"},
        {"solution": ["reverse_string.go"], "test": ["reverse_string_test.go"], "editor": ["cases_test.go"],
         "example": [".meta/example.go"]}, "# Reverse String\n\nReverse a string.\n")
    ts = root / "typescript"
    exercise(ts, "resistor-color", {
        "resistor-color.ts": "export const colorCode = (color: string): number => {\n  throw new Error('Remove this statement and implement this function')\n}\n\nexport const COLORS: string[] = []\n",
        "resistor-color.test.ts": TS_TEST,
        ".meta/proof.ci.ts": "export const COLORS = ['black', 'brown', 'red', 'orange']\n\nexport const colorCode = (color: string): number => {\n  const i = COLORS.indexOf(color)\n  if (i < 0) {\n    throw new Error('unknown color')\n  }\n  return i\n}\n"},
        {"solution": ["resistor-color.ts"], "test": ["resistor-color.test.ts"], "example": [".meta/proof.ci.ts"]},
        "# Resistor Color\n\nMap color names to codes.\n")
    js = root / "javascript"
    exercise(js, "raindrops", {
        "raindrops.js": "export const convert = () => {\n  throw new Error('Remove this line and implement the function');\n};\n",
        "raindrops.spec.js": JS_TEST,
        ".meta/proof.ci.js": "export const convert = (n) => {\n  const s = (n % 3 ? '' : 'Pling') + (n % 5 ? '' : 'Plang');\n  return s || String(n);\n};\n"},
        {"solution": ["raindrops.js"], "test": ["raindrops.spec.js"], "example": [".meta/proof.ci.js"]},
        "# Raindrops\n\nPling, Plang.\n")
    exercise(js, "mocked", {"mocked.js": "export const f = () => 1;\n",
                            "mocked.spec.js": "import { f } from './mocked';\ntest('x', () => { const g = jest.fn(); expect(f()).toBe(1); });\n",
                            ".meta/proof.ci.js": "export const f = () => 1;\n"},
             {"solution": ["mocked.js"], "test": ["mocked.spec.js"], "example": [".meta/proof.ci.js"]}, "# Mocked\n")
    exercise(root / "rust", "hello", {"src/lib.rs": "", "tests/hello.rs": "", ".meta/example.rs": ""},
             {"solution": ["src/lib.rs"], "test": ["tests/hello.rs"], "example": [".meta/example.rs"]}, "# Hello\n")
    return root
