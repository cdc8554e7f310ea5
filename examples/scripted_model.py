"""An offline, scripted stand-in for the LLM, so the examples run without network or keys.

``ScriptedAgent`` is a real 10xgraph ``Agent`` whose model call replays a script:
each reply is either text, a list of tool calls, or a function of the messages the
model was sent (to react to a tool result). It records every request it was sent.

It overrides three private hooks of ``tenxgraph.core.graph.Agent``
(``_create_client``, ``_get_converter_key``, ``_call_llm``), checked against
10xgraph 0.10.3: pin that version when you copy this.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenxgraph.core.graph import Agent
from tenxgraph.core.state import Message
from tenxgraph.core.state.message_block import ToolCallBlock
from tenxgraph.runtime.adapters.llm.base_converter import BaseConverter

Messages = list[dict[str, Any]]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the scripted model makes."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


Reply = str | Sequence[ToolCall] | Callable[[Messages], "str | Sequence[ToolCall]"]


@dataclass
class _Response:
    text: str
    calls: Sequence[ToolCall]


class _ScriptConverter(BaseConverter):
    async def convert_response(self, response: _Response) -> Message:
        message = Message.text_message(response.text, role="assistant")
        if response.calls:
            message.tools_calls = []
            for call in response.calls:
                call_id = f"call-{uuid.uuid4().hex[:8]}"
                message.tools_calls.append(
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                    }
                )
                message.content.append(
                    ToolCallBlock(id=call_id, name=call.name, args=call.arguments)
                )
        return message

    async def convert_streaming_response(
        self,
        config: dict[str, Any],
        node_name: str,
        response: _Response,
        meta: dict[str, Any] | None = None,
    ) -> AsyncIterator[Message]:
        yield await self.convert_response(response)


class ScriptedAgent(Agent):
    """An Agent whose "model" answers from ``replies``, in order."""

    def __init__(self, replies: Sequence[Reply], **kwargs: Any) -> None:
        kwargs.setdefault("reasoning_config", None)
        kwargs.setdefault("retry_config", False)
        super().__init__(model="scripted-model", provider="openai", **kwargs)
        self.replies = list(replies)
        self.requests: list[Messages] = []

    def _create_client(
        self, provider: str, base_url: str | None = None, use_vertex_ai: bool = False
    ) -> None:
        return None  # no SDK client: nothing leaves the process

    def _get_converter_key(self) -> Any:
        return _ScriptConverter()

    async def _call_llm(
        self,
        messages: Messages,
        tools: list[Any] | None = None,
        stream: bool = False,
        **kwargs: Any,
    ) -> _Response:
        self.requests.append(messages)
        if not self.replies:
            raise AssertionError("the scripted model ran out of replies")
        reply = self.replies.pop(0)
        if callable(reply):
            reply = reply(messages)
        if isinstance(reply, str):
            return _Response(reply, ())
        return _Response("", list(reply))


def last_tool_result(messages: Messages) -> str:
    """The content of the latest tool result the model was sent."""
    for message in reversed(messages):
        if message.get("role") == "tool":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    raise AssertionError("no tool result in the model's input")


def system_text(messages: Messages) -> str:
    """Every system message the model was sent, joined."""
    return "\n".join(str(m.get("content")) for m in messages if m.get("role") == "system")
