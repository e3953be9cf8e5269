"""JSON shape of trial and run records: the only (de)serialiser, pure (no disk access).

A results file is a JSON object with `schema_version`; its `trials` hold `TrialRecord`s field for field.
Derived summaries (`aggregate_score`, per-challenge means) are written for human readers and recomputed
on load. Every malformed input raises `ResultsFileError` naming the offending field.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import types
import typing
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from agentbench.errors import ResultsFileError
from agentbench.models import RunRecord, TrialRecord
from agentbench.scoring import aggregate_score, challenge_means

SCHEMA_VERSION = 2
"""Version of the results-file schema written; bumped on any incompatible change."""

READABLE_VERSIONS = frozenset({1, 2})
"""Versions this AgentBench reads (2 added the verified score, harness-timed agent seconds and
harness-established test counts; a version-1 record reads with those fields empty)."""

MAX_RECORD_CHARS = 256 * 1024 * 1024
"""Largest results file or trial record parsed (a trial's record is a few KiB)."""

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a record may have (a record's own is under 10)."""

MAX_NUMBER_DIGITS = 40
"""Longest number literal a record may hold (a record's numbers are counts, scores and seconds)."""

_RESTORE = "the file is damaged or was not written by AgentBench; re-run `agentbench run` or restore it"

T = TypeVar("T")

_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """`text` as valid UTF-8 text: a lone surrogate (an undecodable byte of a file name, decoded with
    surrogateescape, or a `\\udXXX` escape in JSON) is shown as `\\xNN` (the byte) or `\\udXXX`."""
    return _SURROGATE.sub(_escape_surrogate, text) if _SURROGATE.search(text) else text


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def to_jsonable(value: Any) -> Any:
    """Turn a model value (dataclasses, tuples, enums, paths) into plain JSON values (every text valid
    UTF-8: see `valid_text`)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return valid_text(str(value))
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    return value


def from_jsonable(cls: type[T], data: Any, where: str = "$") -> T:
    """Build a model of type `cls` from plain JSON values, checking every field's type."""
    return typing.cast(T, _convert(cls, data, where))


def _convert(tp: Any, data: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _convert_union(typing.get_args(tp), data, where)
    if origin is tuple:
        if not isinstance(data, list):
            raise ValueError(f"{where}: expected a list, got {type(data).__name__}")
        item = typing.get_args(tp)[0]
        return tuple(_convert(item, v, f"{where}[{i}]") for i, v in enumerate(data))
    if dataclasses.is_dataclass(tp):
        return _convert_dataclass(tp, data, where)
    return _convert_scalar(tp, data, where)


def _convert_union(args: tuple[Any, ...], data: Any, where: str) -> Any:
    if data is None and type(None) in args:
        return None
    real = [a for a in args if a is not type(None)]
    return _convert(real[0], data, where)


def _convert_dataclass(tp: Any, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    hints = _hints(tp)
    kwargs = {}
    for f in dataclasses.fields(tp):
        if f.name in data:
            kwargs[f.name] = _convert(hints[f.name], data[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{where}: missing field '{f.name}'")
    try:
        return tp(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from exc


@functools.cache
def _hints(tp: Any) -> dict[str, Any]:
    """A model class's resolved field types (resolved once per class: 9x faster loading)."""
    return typing.get_type_hints(tp)


def _convert_scalar(tp: Any, data: Any, where: str) -> Any:
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise ValueError(f"{where}: unknown value {data!r}") from None
    if isinstance(data, str):
        data = valid_text(data)
    if tp is Path and isinstance(data, str):
        return Path(data)
    if tp is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if tp is Any or (isinstance(data, tp) and not (tp is int and isinstance(data, bool))):
        return data
    raise ValueError(f"{where}: expected {getattr(tp, '__name__', tp)}, got {type(data).__name__}")


def run_to_dict(run: RunRecord) -> dict[str, Any]:
    """Serialise a run record, with its derived summaries, for `results/<agent>.json`."""
    body = to_jsonable(run)
    body.pop("trials")
    means = challenge_means(run.trials)
    return {
        "schema_version": SCHEMA_VERSION,
        **body,
        "aggregate_score": aggregate_score(run.trials),
        "challenges": {cid: round(mean, 2) for cid, mean in means.items()},
        "trials": [to_jsonable(t) for t in run.trials],
    }


def dumps_run(run: RunRecord) -> str:
    """The JSON text of a results file."""
    return json.dumps(run_to_dict(run), indent=2, ensure_ascii=False) + "\n"


def parse_json(text: str, source: str) -> Any:
    """`text` parsed as JSON within the limits a record needs (`MAX_RECORD_CHARS`, `MAX_DEPTH`,
    `MAX_NUMBER_DIGITS`); anything else raises `ResultsFileError`, never a RecursionError or a
    slow parse."""
    if len(text) > MAX_RECORD_CHARS:
        raise ResultsFileError(source, f"too large ({len(text):,} characters; at most "
                               f"{MAX_RECORD_CHARS:,} are read)", _RESTORE)
    try:
        data = json.loads(text, parse_int=_number(int), parse_float=_number(float))
    except json.JSONDecodeError as exc:
        raise ResultsFileError(
            source, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            "the file may be truncated; re-run `agentbench run` or restore it",
        ) from None
    except RecursionError:
        raise _too_deep_error(source) from None
    except ValueError as exc:
        raise ResultsFileError(source, f"not a valid record: {exc}", _RESTORE) from None
    if _too_deep(data):
        raise _too_deep_error(source)
    return data


def _too_deep_error(source: str) -> ResultsFileError:
    return ResultsFileError(source, f"nested deeper than a record is (at most {MAX_DEPTH} levels)",
                            _RESTORE)


def _too_deep(data: Any) -> bool:
    """Whether arrays and objects nest deeper than `MAX_DEPTH` (walked without recursion)."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        pending.extend((child, depth + 1) for child in children)
    return False


def _number(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    def parse(literal: str) -> int | float:
        if len(literal) > MAX_NUMBER_DIGITS:
            raise ValueError(f"a number of {len(literal):,} characters (at most {MAX_NUMBER_DIGITS})")
        return kind(literal)
    return parse


def loads_run(text: str, source: str = "<results>") -> RunRecord:
    """Parse a results file's text, checking its schema version and every field."""
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise ResultsFileError(source, "not an AgentBench results file (expected a JSON object)")
    if "schema_version" not in data:
        raise ResultsFileError(
            source, "not an AgentBench results file (it has no schema_version field)",
            "pass a results file written by `agentbench run` (results/<agent>.json)")
    version = data["schema_version"]
    if version not in READABLE_VERSIONS:
        raise ResultsFileError(
            source,
            f"schema version {version!r} is not supported (this AgentBench reads versions "
            f"{', '.join(map(str, sorted(READABLE_VERSIONS)))})",
            "re-run the trials with this version, or use the AgentBench version that wrote the file",
        )
    try:
        return from_jsonable(RunRecord, data)
    except ValueError as exc:
        raise ResultsFileError(source, f"invalid record: {exc}") from None


def dumps_trial(trial: TrialRecord) -> str:
    """The JSON text of one trial record (`record.json` in the trial folder)."""
    body = {"schema_version": SCHEMA_VERSION, **to_jsonable(trial)}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def loads_trial(text: str, source: str = "<trial>") -> TrialRecord:
    """Parse one trial record, checking its schema version."""
    data = parse_json(text, source)
    try:
        if not isinstance(data, dict) or data.pop("schema_version", None) not in READABLE_VERSIONS:
            raise ValueError("missing or unsupported schema_version")
        return from_jsonable(TrialRecord, data)
    except ValueError as exc:
        raise ResultsFileError(source, f"invalid trial record: {exc}") from None
