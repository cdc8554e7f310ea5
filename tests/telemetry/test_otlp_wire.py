"""On the wire: a memoryd process exports over OTLP/gRPC to a receiver of our own."""

from __future__ import annotations

import uuid

from opentelemetry.sdk.trace import TracerProvider

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient

from support import ServerProcess, otlp_receiver


def test_server_spans_and_metrics_reach_an_otlp_receiver_in_the_callers_trace(tmp_path) -> None:
    with otlp_receiver() as (receiver, port):
        env = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
            "OTEL_EXPORTER_OTLP_INSECURE": "true",
            "OTEL_SERVICE_NAME": "memoryd-under-test",
            "OTEL_BSP_SCHEDULE_DELAY": "100",
            "OTEL_METRIC_EXPORT_INTERVAL": "300",
        }
        server = ServerProcess(tmp_path / "data", env=env).start()
        try:
            assert "OpenTelemetry on" in "".join(server.log)
            tracer = TracerProvider().get_tracer("agent")
            user = f"u-{uuid.uuid4().hex[:8]}"
            client = MemorydClient(server.address)
            try:
                with tracer.start_as_current_span("agent.tool_call") as parent:
                    memory = pb.Memory(content="Wire-traced memory", scope=pb.Scope(user_id=user))
                    client.create_memory(
                        svc.CreateMemoryRequest(memory=memory, mode=svc.WRITE_MODE_SYNC)
                    )
                    client.search_memories(
                        svc.SearchMemoriesRequest(query="traced", scope=pb.Scope(user_id=user))
                    )
            finally:
                client.close()
            trace_id = parent.get_span_context().trace_id.to_bytes(16, "big")

            def server_spans_arrived() -> bool:
                names = {s.name for s in receiver.spans if s.trace_id == trace_id}
                return {
                    "/memoryd.v1.MemoryService/CreateMemory",
                    "/memoryd.v1.MemoryService/SearchMemories",
                    "memoryd.journal.append",
                    "embed",
                    "qdrant.query",
                } <= names

            assert receiver.wait_for(server_spans_arrived), sorted({s.name for s in receiver.spans})
            assert receiver.wait_for(
                lambda: {"rpc.server.duration", "memoryd.journal.backlog"} <= receiver.metric_names
            ), receiver.metric_names
            assert all("Wire-traced memory" not in str(s.attributes) for s in receiver.spans)
        finally:
            assert server.stop() == 0
