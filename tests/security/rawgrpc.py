"""A raw gRPC client over HTTP/2 (h2), for metadata the grpc client will not send.

grpc's Python client refuses metadata values outside printable ASCII before
anything leaves the process. This client sends whatever bytes it is given, so
a fuzz test can put exactly those bytes in front of the server.
"""

from __future__ import annotations

import base64
import socket
import struct
from dataclasses import dataclass

import h2.config
import h2.connection
import h2.events
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

#: Each call must end well within this: it bounds a hung server, nothing else.
SOCKET_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class Answer:
    """How the server ended one call: its grpc-status and error details, if any."""

    status: int | None
    message: str
    details: status_pb2.Status | None
    reset: bool

    def error_reasons(self) -> list[tuple[str, str]]:
        """(domain, reason) of each ErrorInfo in the details."""
        found = []
        for detail in self.details.details if self.details is not None else ():
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                found.append((info.domain, info.reason))
        return found


def call(
    port: int,
    method: str,
    request: Message,
    headers: list[tuple[bytes, bytes]],
    *,
    until_first_message: bool = False,
) -> Answer:
    """Sends one call of any kind to ``/<method>`` on loopback with ``headers``
    added unchanged, the request as its only message (a client stream of
    one), and reads the call to its end. With ``until_first_message``, a
    response message ends the read too (the Answer then has the status of the
    response headers, usually None): for streams that never end by themselves."""
    config = h2.config.H2Configuration(
        client_side=True,
        validate_outbound_headers=False,
        normalize_outbound_headers=False,
        validate_inbound_headers=False,
    )
    connection = h2.connection.H2Connection(config)
    connection.initiate_connection()
    stream = connection.get_next_available_stream_id()
    connection.send_headers(
        stream,
        [
            (b":method", b"POST"),
            (b":scheme", b"http"),
            (b":path", f"/{method}".encode()),
            (b":authority", f"127.0.0.1:{port}".encode()),
            (b"content-type", b"application/grpc"),
            (b"te", b"trailers"),
            *headers,
        ],
    )
    body = request.SerializeToString()
    connection.send_data(stream, b"\x00" + struct.pack(">I", len(body)) + body, end_stream=True)
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_SECONDS) as sock:
        sock.sendall(connection.data_to_send())
        return _read_answer(sock, connection, until_first_message)


def _read_answer(
    sock: socket.socket, connection: h2.connection.H2Connection, until_first_message: bool
) -> Answer:
    fields: dict[bytes, bytes] = {}
    while True:
        data = sock.recv(65536)
        if not data:
            return _answer(fields, reset=True)
        for event in connection.receive_data(data):
            match event:
                case h2.events.ResponseReceived() | h2.events.TrailersReceived():
                    fields.update((bytes(k), bytes(v)) for k, v in event.headers or ())
                case h2.events.DataReceived():
                    if until_first_message:
                        return _answer(fields, reset=False)
                    size = event.flow_controlled_length or 0
                    connection.acknowledge_received_data(size, event.stream_id or 0)
                case h2.events.StreamReset() | h2.events.ConnectionTerminated():
                    return _answer(fields, reset=True)
                case h2.events.StreamEnded():
                    return _answer(fields, reset=False)
        sock.sendall(connection.data_to_send())


def _answer(fields: dict[bytes, bytes], *, reset: bool) -> Answer:
    status = fields.get(b"grpc-status")
    details = None
    if b"grpc-status-details-bin" in fields:
        raw = fields[b"grpc-status-details-bin"]
        details = status_pb2.Status.FromString(base64.b64decode(raw + b"=" * (-len(raw) % 4)))
    return Answer(
        status=int(status) if status is not None else None,
        message=fields.get(b"grpc-message", b"").decode(errors="replace"),
        details=details,
        reset=reset,
    )
