"""Auth settings: complete or refused at start, and the loud warning of mode none."""

from __future__ import annotations

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from pydantic import ValidationError

from memoryd.config import Settings

from support import ServerProcess

HASH = "e7ce4d9d4626c5e5aca83172b5d3f2dbec7ecefc0e368bd60f91bdf17325c5c2"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"auth_mode": "api_key"}, "needs MEMORYD_API_KEYS"),
        ({"auth_mode": "api_key", "api_keys": {"mk_plain": {"user_id": "u"}}}, "SHA-256"),
        ({"auth_mode": "api_key", "api_keys": {HASH: {"user_id": "u", "service": "s"}}}, "one"),
        ({"auth_mode": "jwt"}, "exactly one of"),
        ({"auth_mode": "mtls"}, "MEMORYD_TLS_CLIENT_CA_FILE"),
        ({"tls_cert_file": "/x.pem"}, "MEMORYD_TLS_KEY_FILE"),
    ],
)
def test_incomplete_auth_settings_are_refused(fields, message, monkeypatch):
    monkeypatch.delenv("MEMORYD_CONFIG_FILE", raising=False)
    with pytest.raises(ValidationError, match=message):
        Settings(**fields)


def test_mode_none_on_a_public_address_warns_loudly(tmp_path):
    process = ServerProcess(tmp_path, env={"MEMORYD_HOST": "0.0.0.0"}).start()
    try:
        with process.channel() as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
        log = "".join(process.log)
    finally:
        assert process.stop() == 0
    assert "SECURITY WARNING" in log and "auth_mode is 'none'" in log
