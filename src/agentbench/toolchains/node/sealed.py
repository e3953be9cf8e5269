"""Sealed hidden test files: files whose process can load no product code, so no canary is needed.

TypeScript hidden tests run one file per child process (`hidden.py`), in an undumpable tree. A file
that imports only Node's own modules (a CLI test that spawns the product and reads its output) runs
no product code in its process: the product runs in the grandchildren it spawns, which cannot reach
that process's stdout (the report to the judging parent), its memory or its descriptors, and whose
only way to the verdict is their own output, which is what the test judges. So its tests need no
twins: they count as guarded by the process boundary (`canaries.surveyed(sealed=...)`), and they
run in a `node --test` of their own before the other files (`hidden._run`), so a product-loading
file's child, which could write forged reports, never shares a judging parent with them.

The check is on the hidden test's source (written by the challenge author, never by the agent) and
errs towards "not sealed": any import other than an allowed `node:` module, any `import(...)`,
`require`, `export`, `eval`, `Function`, `WebAssembly`, `Worker`, `dlopen` or `import.meta` other
than `import.meta.url` makes a file an ordinary one (twinned).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentbench.toolchains.node.canaries import tokenize

BUILTINS = frozenset({
    "assert", "assert/strict", "buffer", "child_process", "crypto", "dns", "events", "fs",
    "fs/promises", "http", "https", "net", "os", "path", "path/posix", "readline", "stream",
    "stream/promises", "string_decoder", "test", "timers", "timers/promises", "url", "util", "zlib",
})
"""Node modules a sealed file may import (`node:` prefix; without it, all but `test`): none of them
loads or evaluates code from a file (no `module`, `vm`, `worker_threads`, `inspector`, `wasi`)."""
BANNED = frozenset({"require", "export", "eval", "Function", "WebAssembly", "Worker", "dlopen",
                    "createRequire", "globalThis"})
_IN_TEMPLATE = re.compile(r"\$\{[^}]*\b(import|require|eval|Function|WebAssembly|Worker|dlopen)\b")


def is_sealed(text: str) -> bool:
    """Whether a hidden test file can load no product code in its own process (see above)."""
    try:
        tokens = tokenize(text)
    except ValueError:
        return False
    for i, tok in enumerate(tokens):
        if tok.kind == "tmpl" and _IN_TEMPLATE.search(tok.text):
            return False
        if tok.kind != "id":
            continue
        if tok.text in BANNED:
            return False
        if tok.text == "import" and not _allowed_import(tokens, i):
            return False
    return True


def _allowed_import(tokens: Sequence[Any], i: int) -> bool:
    """`import.meta.url`, or a static import statement of an allowed Node module."""
    after = [t.text for t in tokens[i + 1:i + 4]]
    if after[:1] == ["."]:
        return after[1:3] == ["meta", "."] and i + 4 < len(tokens) and tokens[i + 4].text == "url"
    if after[:1] == ["("]:
        return False
    for tok in tokens[i + 1:]:
        if tok.kind == "str":
            return _builtin(tok.text[1:-1])
        if tok.text in (";", "(", "=") or tok.kind == "tmpl":
            return False
    return False


def _builtin(specifier: str) -> bool:
    if specifier.startswith("node:"):
        return specifier[5:] in BUILTINS
    return specifier in BUILTINS and specifier != "test"
