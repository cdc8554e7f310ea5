/**
 * TLS and connection failures: the TLS options reach the connection (checked
 * against in-process TLS and mutual-TLS stand-ins on loopback ports), and a
 * connection that cannot be made or breaks is UNAVAILABLE, as in gRPC.
 */
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import type { PeerCertificate, TLSSocket } from "node:tls";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import {
  AbortedError,
  CancelledError,
  InternalServerError,
  MemoryService,
  UnavailableError,
  createMemorydClient,
  toMemorydError,
  type MemorydClient,
  type MemorydClientOptions,
} from "../src/index.js";
import { connectionFailure, sessionOptions } from "../src/transport.js";
import { CA, CLIENT_CERT, CLIENT_KEY, OTHER_CA, SERVER_CERT, SERVER_KEY } from "./tls-fixtures.js";

/** The common name of the client certificate each handled call came with ("" for none). */
const peers: string[] = [];


function routes(router: ConnectRouter): void {
  router.service(MemoryService, {
    async getMemory(request) {
      return { memory: { id: request.id, scope: request.scope } };
    },
  });
}

type Server = { address: string; close(): Promise<void> };

async function listen(server: net.Server): Promise<Server> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) {
          socket.destroy();
        }
      }),
  };
}

/** A TLS memoryd stand-in; with `mutual`, one that requires a client certificate of CA. */
function tlsServer(mutual: boolean): Promise<Server> {
  const adapter = connectNodeAdapter({ routes });
  const server = http2.createSecureServer(
    {
      cert: SERVER_CERT,
      key: SERVER_KEY,
      ...(mutual ? { ca: CA, requestCert: true, rejectUnauthorized: true } : {}),
    },
    (request, response) => {
      const peer = (request.socket as TLSSocket).getPeerCertificate?.() as PeerCertificate | undefined;
      peers.push(String(peer?.subject?.CN ?? ""));
      adapter(request, response);
    },
  );
  server.on("tlsClientError", () => {
    // A client that fails the handshake is what some tests do on purpose.
  });
  return listen(server);
}

let tls: Server;
let mtls: Server;
let plaintext: Server;
const clients: MemorydClient[] = [];

function client(address: string, options: MemorydClientOptions = {}): MemorydClient {
  const made = createMemorydClient({ address, timeoutMs: 3000, maxAttempts: 1, ...options });
  clients.push(made);
  return made;
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  assert.fail("the call succeeded");
}

before(async () => {
  tls = await tlsServer(false);
  mtls = await tlsServer(true);
  plaintext = await listen(http2.createServer(connectNodeAdapter({ routes })));
});

after(async () => {
  for (const made of clients) {
    made.close();
  }
  await Promise.all([tls.close(), mtls.close(), plaintext.close()]);
});

const request = { id: "m1", scope: { userId: "u1" } };

describe("TLS options", () => {
  it("are plaintext without tls", () => {
    assert.deepEqual(sessionOptions(undefined), {});
  });

  it("carry the CA, the client certificate and key, as text or bytes", () => {
    const options = sessionOptions({ ca: CA, cert: new TextEncoder().encode(CLIENT_CERT), key: CLIENT_KEY });
    assert.equal(options.ca, CA);
    assert.ok(Buffer.isBuffer(options.cert));
    assert.equal(options.cert.toString(), CLIENT_CERT);
    assert.equal(options.key, CLIENT_KEY);
    assert.equal(options.servername, undefined);
    assert.equal(options.checkServerIdentity, undefined);
  });

  it("verify the server by serverName, sent as SNI unless it is an IP address", () => {
    const localhost = { subject: { CN: "memoryd.test" }, subjectaltname: "DNS:localhost, IP Address:127.0.0.1" };
    const byName = sessionOptions({ ca: CA, serverName: "localhost" });
    assert.equal(byName.servername, "localhost");
    assert.equal(byName.checkServerIdentity?.("127.0.0.2", localhost as PeerCertificate), undefined);
    const wrong = sessionOptions({ ca: CA, serverName: "memoryd.example" });
    assert.ok(wrong.checkServerIdentity?.("localhost", localhost as PeerCertificate) instanceof Error);
    const byIp = sessionOptions({ ca: CA, serverName: "127.0.0.1" });
    assert.equal(byIp.servername, undefined);
    assert.equal(byIp.checkServerIdentity?.("localhost", localhost as PeerCertificate), undefined);
  });

  it("refuse PEM material that does not load, when the client is made", () => {
    assert.throws(() => createMemorydClient({ tls: { ca: "not a certificate" } }), /TLS material does not load/);
    assert.throws(
      () => createMemorydClient({ tls: { ca: "-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n" } }),
      /TLS material does not load/,
    );
    assert.throws(
      () => createMemorydClient({ tls: { ca: CA, cert: CLIENT_CERT, key: SERVER_KEY } }),
      /TLS material does not load/,
    );
  });
});

describe("connection failures", () => {
  it("are UNAVAILABLE: an untrusted certificate, a reset or a failed HTTP/2 session", () => {
    const nodeError = (code: string, message = code) => Object.assign(new Error(message), { code });
    const cases = [
      new ConnectError("unable to verify the first certificate", Code.Internal, undefined, undefined,
        nodeError("UNABLE_TO_VERIFY_LEAF_SIGNATURE")),
      new ConnectError("self-signed certificate", Code.Internal, undefined, undefined,
        nodeError("DEPTH_ZERO_SELF_SIGNED_CERT")),
      new ConnectError("read ECONNRESET", Code.Aborted, undefined, undefined, nodeError("ECONNRESET")),
      nodeError("ERR_SSL_WRONG_VERSION_NUMBER"),
      nodeError("ERR_TLS_CERT_ALTNAME_INVALID"),
      nodeError("ERR_HTTP2_SESSION_ERROR"),
    ];
    for (const error of cases) {
      const typed = toMemorydError(error);
      assert.ok(typed instanceof UnavailableError, `${String(error)} gave ${typed.name}`);
      assert.equal(typed.code, "UNAVAILABLE");
      assert.equal(typed.reason, "");
      assert.equal(connectionFailure(error)?.code, Code.Unavailable);
    }
  });

  it("leave the server's statuses and the caller's cancellations alone", () => {
    assert.ok(toMemorydError(new ConnectError("boom", Code.Internal)) instanceof InternalServerError);
    assert.ok(toMemorydError(new ConnectError("connection aborted", Code.Canceled)) instanceof CancelledError);
    assert.ok(toMemorydError(new ConnectError("gone", Code.Aborted)) instanceof AbortedError);
    assert.equal(connectionFailure(new ConnectError("x", Code.Unavailable)), undefined);
    assert.equal(connectionFailure("not an error"), undefined);
  });
});

describe("over TLS", () => {
  it("a client that trusts the server's CA is served", async () => {
    const response = await client(tls.address, { tls: { ca: CA } }).getMemory(request);
    assert.equal(response.memory?.id, "m1");
  });

  it("a client that trusts another CA is UNAVAILABLE, after its retries", async () => {
    const seen: Code[] = [];
    const interceptor: Interceptor = (next) => async (req) => {
      try {
        return await next(req);
      } catch (error) {
        seen.push(ConnectError.from(error).code);
        throw error;
      }
    };
    const error = await failure(
      client(tls.address, {
        tls: { ca: OTHER_CA },
        maxAttempts: 3,
        initialBackoffMs: 1,
        maxBackoffMs: 2,
        interceptors: [interceptor],
      }).getMemory(request),
    );
    assert.ok(error instanceof UnavailableError, String(error));
    assert.match(error.message, /certificate/);
    // Each attempt failed UNAVAILABLE, as the retries and the caller's interceptors see it.
    assert.deepEqual(seen, [Code.Unavailable, Code.Unavailable, Code.Unavailable]);
  });

  it("a client that verifies another server name is UNAVAILABLE", async () => {
    const error = await failure(client(tls.address, { tls: { ca: CA, serverName: "memoryd.example" } }).getMemory(request));
    assert.ok(error instanceof UnavailableError, String(error));
  });

  it("a plaintext client is UNAVAILABLE", async () => {
    const error = await failure(client(tls.address).getMemory(request));
    assert.ok(error instanceof UnavailableError, String(error));
  });

  it("a TLS client of a plaintext server is UNAVAILABLE", async () => {
    const error = await failure(client(plaintext.address, { tls: { ca: CA } }).getMemory(request));
    assert.ok(error instanceof UnavailableError, String(error));
  });

  it("a Preload stream that cannot connect fails UNAVAILABLE", async () => {
    const stream = client(tls.address, { tls: { ca: OTHER_CA } }).preload({ userScope: { userId: "u1" }, query: "q" });
    const error = await failure((async () => {
      for await (const _ of stream) {
        // no event comes
      }
    })());
    assert.ok(error instanceof UnavailableError, String(error));
  });
});

describe("mutual TLS", () => {
  it("presents the client certificate and key", async () => {
    peers.length = 0;
    const response = await client(mtls.address, { tls: { ca: CA, cert: CLIENT_CERT, key: CLIENT_KEY } }).getMemory(request);
    assert.equal(response.memory?.id, "m1");
    assert.deepEqual(peers, ["alice.clients.test"]);
  });

  it("without a client certificate, the refused handshake is UNAVAILABLE", async () => {
    const error = await failure(client(mtls.address, { tls: { ca: CA } }).getMemory(request));
    assert.ok(error instanceof UnavailableError, String(error));
  });
});

describe("a dropped connection", () => {
  it("is UNAVAILABLE when the server hangs up before answering", async () => {
    const hangUp = await listen(net.createServer((socket) => socket.once("data", () => socket.end())));
    try {
      const error = await failure(client(hangUp.address).getMemory(request));
      assert.ok(error instanceof UnavailableError, String(error));
      assert.match(error.message, /closed before the call completed/);
    } finally {
      await hangUp.close();
    }
  });

  it("but a stream the server cancels on a live connection stays CANCELLED", async () => {
    const cancelling = http2.createServer();
    cancelling.on("stream", (stream) => stream.close(http2.constants.NGHTTP2_CANCEL));
    const server = await listen(cancelling);
    try {
      const error = await failure(client(server.address).getMemory(request));
      assert.ok(error instanceof CancelledError, String(error));
    } finally {
      await server.close();
    }
  });
});
