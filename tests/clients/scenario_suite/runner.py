"""The Python conformance runner: PROTOCOL.md's steps through memoryd_client.MemorydClient."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from memoryd_client import MemorydClient, MemorydError, svc


def _print(message: Message) -> Any:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def _error(error: MemorydError) -> dict[str, Any]:
    violations = getattr(error, "field_violations", [])
    return {
        "code": error.code,
        "reason": error.reason,
        "message": error.message,
        "field_violations": [{"field": v.field, "description": v.description} for v in violations],
    }


class Runner:
    def __init__(self) -> None:
        self._client: MemorydClient | None = None

    def connect(
        self, target: str, token: str | None, timeout_ms: int, tls: dict[str, str] | None
    ) -> None:
        self.close()
        seconds = timeout_ms / 1000
        secure: dict[str, Any] = {}
        if tls:
            secure = {
                "tls": True,
                "root_certificates": tls["ca"].encode(),
                "certificate_chain": tls["cert"].encode() if "cert" in tls else None,
                "private_key": tls["key"].encode() if "key" in tls else None,
            }
        self._client = MemorydClient(
            target, token=token, read_timeout=seconds, write_timeout=seconds, **secure
        )

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def call(self, rpc: str, request: dict[str, Any], timeout_ms: int | None) -> dict[str, Any]:
        client = self._client
        if client is None:
            return {"fault": "call before connect"}
        timeout = None if timeout_ms is None else timeout_ms / 1000
        unary: dict[str, tuple[type[Message], Callable[..., Message]]] = {
            "CreateMemory": (svc.CreateMemoryRequest, client.create_memory),
            "BatchCreateMemories": (svc.BatchCreateMemoriesRequest, client.batch_create_memories),
            "GetMemory": (svc.GetMemoryRequest, client.get_memory),
            "ListMemories": (svc.ListMemoriesRequest, client.list_memories),
            "UpdateMemory": (svc.UpdateMemoryRequest, client.update_memory),
            "DeleteMemory": (svc.DeleteMemoryRequest, client.delete_memory),
            "SearchMemories": (svc.SearchMemoriesRequest, client.search_memories),
            "ForgetMemories": (svc.ForgetMemoriesRequest, client.forget_memories),
        }
        try:
            if rpc in unary:
                message_type, method = unary[rpc]
                parsed = json_format.ParseDict(request, message_type())
                return {"response": _print(method(parsed, timeout=timeout))}
            if rpc == "GetWriteStatus":
                token = json_format.ParseDict(request, svc.GetWriteStatusRequest()).write_token
                return {"response": _print(client.get_write_status(token, timeout=timeout))}
            if rpc == "ListAllMemories":
                parsed = json_format.ParseDict(request, svc.ListMemoriesRequest())
                memories = [_print(m) for m in client.iter_memories(parsed, timeout=timeout)]
                return {"response": {"memories": memories}}
            if rpc in ("Preload", "PreloadContext"):
                return self._preload(client, rpc, request, timeout)
        except MemorydError as error:
            return {"error": _error(error)}
        return {"fault": f"unknown rpc {rpc!r}"}

    def _preload(
        self, client: MemorydClient, rpc: str, request: dict[str, Any], timeout: float | None
    ) -> dict[str, Any]:
        parsed = json_format.ParseDict(request, svc.PreloadRequest())
        if rpc == "PreloadContext":
            text = client.preload_context(parsed, timeout=timeout)
            return {"response": {"text": text or ""}}
        events: list[Any] = []
        try:
            for event in client.preload(parsed, timeout=timeout):
                events.append(_print(_wrapped(event)))
        except MemorydError as error:
            return {"events": events, "error": _error(error)}
        return {"events": events}


def _wrapped(event: Message) -> svc.PreloadResponse:
    """The PreloadResponse that carried ``event`` (the wrapper yields the oneof's value)."""
    field = {
        svc.ScopeHits: "hits",
        svc.PreloadContext: "context",
        svc.PreloadDone: "done",
        svc.PreloadNotModified: "not_modified",
    }[type(event)]
    response = svc.PreloadResponse()
    getattr(response, field).CopyFrom(event)
    return response


def main() -> int:
    runner = Runner()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        answer: dict[str, Any]
        try:
            match message["op"]:
                case "connect":
                    runner.connect(
                        message["target"],
                        message.get("token"),
                        message["timeout_ms"],
                        message.get("tls"),
                    )
                    answer = {"ok": True}
                case "call":
                    answer = runner.call(
                        message["rpc"], message.get("request", {}), message.get("timeout_ms")
                    )
                case "close":
                    runner.close()
                    answer = {"ok": True}
                case other:
                    answer = {"fault": f"unknown op {other!r}"}
        except json_format.ParseError as error:
            answer = {"fault": f"cannot parse the request: {error}"}
        print(json.dumps({"id": message["id"], **answer}), flush=True)
    runner.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
