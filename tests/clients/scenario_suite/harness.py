"""The conformance harness: runs scenario files through the language runners (PROTOCOL.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
#: How long one runner answer may take: a call's own deadline is far shorter;
#: this only turns a hung runner into a failure.
ANSWER_TIMEOUT = 120.0
#: The bearer tokens of the "api_key" server and who they are (see api_key_env).
API_KEY_PRINCIPALS: dict[str, dict[str, Any]] = {
    "alice": {"user_id": "alice"},
    "bob": {"user_id": "bob"},
    "service": {"service": "backend", "scopes": ["memory:act_as_user", "agent_memory:write"]},
}

#: The command that starts each language's runner, from the repository root.
RUNNERS: dict[str, list[str]] = {
    "python": [sys.executable, str(ROOT / "tests/clients/scenario_suite/runner.py")],
    "typescript": ["node", str(ROOT / "clients/typescript/dist/conformance/runner.js")],
    "go": [str(ROOT / "clients/go/bin/conformance")],
    "java": [str(ROOT / "clients/java/target/conformance-runner")],
}
LANGUAGES = tuple(RUNNERS)


def load_scenarios() -> list[dict[str, Any]]:
    """Every scenario file, by name order."""
    return [json.loads(path.read_text()) for path in sorted(SCENARIOS.glob("*.json"))]


class StepFailed(AssertionError):
    """A step's answer did not match its expectation."""


class Runner:
    """One runner process, spoken to line by line."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._process = subprocess.Popen(
            RUNNERS[language],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._stderr: list[str] = []
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()
        self._next_id = 0

    def _drain_stderr(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            self._stderr.append(line)

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        message = {"id": self._next_id, **message}
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()
        line = _read_line(self._process, ANSWER_TIMEOUT)
        if not line:
            raise StepFailed(
                f"{self.language} runner ended without answering {message['op']}:\n"
                + "".join(self._stderr[-40:])
            )
        answer: dict[str, Any] = json.loads(line)
        if answer.get("id") != self._next_id:
            raise StepFailed(f"{self.language} runner answered out of order: {line}")
        if "fault" in answer:
            raise StepFailed(f"{self.language} runner fault: {answer['fault']}")
        return answer

    def close(self) -> None:
        """Ends the runner (end of input) and releases its pipes."""
        process = self._process
        if process.stdin is not None and not process.stdin.closed:
            try:
                process.stdin.close()
            except BrokenPipeError:  # it already exited
                pass
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)
        self._stderr_reader.join(30)
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()


def _read_line(process: subprocess.Popen[str], timeout: float) -> str:
    result: list[str] = []
    reader = threading.Thread(
        target=lambda: result.append(process.stdout.readline() if process.stdout else ""),
        daemon=True,
    )
    reader.start()
    reader.join(timeout)
    if reader.is_alive():
        process.kill()
        raise StepFailed(f"runner gave no answer within {timeout:.0f}s")
    return result[0]


@dataclass
class Run:
    """One run of one scenario: its variables and the runners it speaks to."""

    scenario: Mapping[str, Any]
    targets: Mapping[str, str]
    runners: dict[str, Runner]
    credentials: Credentials
    variables: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.variables["run"] = uuid.uuid4().hex[:10]

    def execute(self, language: str | None) -> None:
        """Runs every step; ``language`` None means each step's own ``as``."""
        connected: set[str] = set()
        for index, step in enumerate(self.scenario["steps"]):
            speaker = language or step.get("as")
            if speaker is None:
                raise StepFailed(f"step {index} of a cross-language scenario names no language")
            runner = self.runners[speaker]
            if "connect" in step or speaker not in connected:
                self._connect(runner, step.get("connect", {}))
                connected.add(speaker)
            try:
                self._step(runner, step)
            except StepFailed as failure:
                raise StepFailed(
                    f"{self.scenario['name']}: step {index} ({step['call']}, {speaker}): {failure}"
                ) from None

    def _connect(self, runner: Runner, step_connect: Mapping[str, Any]) -> None:
        connect = {**self.scenario.get("connect", {}), **step_connect}
        server = self.scenario.get("server", "default")
        message: dict[str, Any] = {
            "op": "connect",
            "target": self.targets[server],
            "token": connect.get("token"),
            "timeout_ms": connect.get("timeout_ms", 10_000),
        }
        if connect.get("tls"):
            message["tls"] = self.credentials.tls(connect["tls"])
        runner.ask(message)

    def _step(self, runner: Runner, step: Mapping[str, Any]) -> None:
        message: dict[str, Any] = {
            "op": "call",
            "rpc": step["call"],
            "request": self.substitute(step.get("request", {})),
        }
        if "timeout_ms" in step:
            message["timeout_ms"] = step["timeout_ms"]
        answer = runner.ask(message)
        expect = self.substitute(step.get("expect", {"response": {}}))
        for key in ("response", "error", "events"):
            if key in expect:
                if key not in answer:
                    raise StepFailed(f"expected {key}, got {json.dumps(answer)[:2000]}")
                match(expect[key], answer[key], key)
        if "error" not in expect and "error" in answer:
            raise StepFailed(f"unexpected error {json.dumps(answer['error'])}")
        for name, path in step.get("save", {}).items():
            self.variables[name] = lookup(answer.get("response", answer), path)

    def substitute(self, value: Any) -> Any:
        """``value`` with ``${name}`` replaced by saved variables."""
        if isinstance(value, str):
            whole = re.fullmatch(r"\$\{(\w+)\}", value)
            if whole and whole.group(1) in self.variables:
                return self.variables[whole.group(1)]
            return re.sub(r"\$\{(\w+)\}", lambda m: str(self.variables[m.group(1)]), value)
        if isinstance(value, list):
            return [self.substitute(item) for item in value]
        if isinstance(value, dict):
            return {key: self.substitute(item) for key, item in value.items()}
        return value


def lookup(document: Any, path: str) -> Any:
    for part in path.split("."):
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


_DEFAULTS: tuple[Any, ...] = (0, "", False, [], {}, "0")


def match(expected: Any, actual: Any, where: str) -> None:
    """Raises StepFailed unless ``actual`` matches ``expected`` (see PROTOCOL.md)."""
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        _match_operator(next(iter(expected)), next(iter(expected.values())), actual, where)
    elif isinstance(expected, dict):
        if actual is None:
            actual = {}
        if not isinstance(actual, dict):
            raise StepFailed(f"{where}: expected an object, got {json.dumps(actual)}")
        for key, value in expected.items():
            if key not in actual:
                if _is_absent_ok(value):
                    continue
                raise StepFailed(f"{where}.{key}: missing; the answer has {sorted(actual)}")
            match(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        actual = actual if actual is not None else []
        if not isinstance(actual, list) or len(actual) != len(expected):
            raise StepFailed(f"{where}: expected {len(expected)} items, got {json.dumps(actual)}")
        for i, (want, got) in enumerate(zip(expected, actual, strict=True)):
            match(want, got, f"{where}[{i}]")
    elif not _scalar_equal(expected, actual):
        raise StepFailed(f"{where}: expected {json.dumps(expected)}, got {json.dumps(actual)}")


def _is_absent_ok(expected: Any) -> bool:
    if isinstance(expected, dict) and set(expected) == {"$absent"}:
        return True
    if isinstance(expected, dict) and not any(k.startswith("$") for k in expected):
        return all(_is_absent_ok(v) for v in expected.values())
    return any(expected == default and type(expected) is type(default) for default in _DEFAULTS)


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, int | float) and isinstance(actual, int | float | str):
        try:
            return float(actual) == float(expected)
        except ValueError:
            return False
    return bool(expected == actual)


def _number(value: Any, where: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise StepFailed(f"{where}: expected a number, got {json.dumps(value)}") from None


def _match_operator(operator: str, operand: Any, actual: Any, where: str) -> None:
    ok: bool
    match operator:
        case "$absent":
            ok = actual is None
        case "$present":
            ok = actual is not None
        case "$startsWith":
            ok = isinstance(actual, str) and actual.startswith(operand)
        case "$contains" if isinstance(operand, str):
            ok = isinstance(actual, str) and operand in actual
        case "$contains":
            for want in operand:
                if not any(_matches(want, got) for got in actual or []):
                    raise StepFailed(f"{where}: no element matches {json.dumps(want)}")
            ok = True
        case "$len":
            ok = len(actual or []) == operand
        case "$gt" | "$gte" | "$lt" | "$lte":
            value = _number(actual if actual is not None else 0, where)
            ok = {
                "$gt": value > operand,
                "$gte": value >= operand,
                "$lt": value < operand,
                "$lte": value <= operand,
            }[operator]
        case _:
            raise StepFailed(f"{where}: unknown matcher {operator}")
    if not ok:
        raise StepFailed(f"{where}: {operator} {json.dumps(operand)} fails on {json.dumps(actual)}")


def _matches(expected: Any, actual: Any) -> bool:
    try:
        match(expected, actual, "")
    except StepFailed:
        return False
    return True


@dataclass(frozen=True)
class Credentials:
    """The PEM material scenarios name: ``authorities`` by name (the servers'
    own is "test-ca"), ``clients`` (certificate and key) by name."""

    authorities: Mapping[str, str]
    clients: Mapping[str, tuple[str, str]]

    def tls(self, wanted: Mapping[str, Any]) -> dict[str, str]:
        """The connect op's ``tls``: {"ca": PEM, "cert": PEM, "key": PEM} as named."""
        tls = {"ca": self.authorities[wanted["ca"]]}
        if wanted.get("client"):
            tls["cert"], tls["key"] = self.clients[wanted["client"]]
        return tls


def api_key_env() -> dict[str, str]:
    """The settings of the "api_key" server: each token of API_KEY_PRINCIPALS
    (its name) authenticates as its principal."""
    import hashlib

    keys = {
        hashlib.sha256(token.encode()).hexdigest(): principal
        for token, principal in API_KEY_PRINCIPALS.items()
    }
    return {"MEMORYD_AUTH_MODE": "api_key", "MEMORYD_API_KEYS": json.dumps(keys)}
