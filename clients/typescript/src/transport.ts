/**
 * The HTTP/2 connection under the client: TLS session options, and the mapping
 * of connection failures to UNAVAILABLE that a gRPC user expects.
 *
 * connect-node reports failures of the connection itself by the Node.js error
 * under them: a server certificate that does not chain to the trusted CA is
 * INTERNAL, a reset connection ABORTED, and a connection the server closes
 * before it answers (a plaintext client at a TLS port) CANCELLED, "http/2
 * stream closed with error code CANCEL". In gRPC all of these are UNAVAILABLE:
 * the call could not reach the server, and may succeed once it can.
 */
import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import * as http2 from "node:http2";
import { checkServerIdentity, createSecureContext, type PeerCertificate } from "node:tls";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { Http2SessionManager } from "@connectrpc/connect-node";
import type { TlsOptions } from "./options.js";

/**
 * The http2.connect() options of a connection with these TLS settings: the CA
 * to trust (the system roots when unset), the client certificate and key for
 * mutual TLS, and the name to verify the server by. Throws a TypeError if the
 * PEM material does not load.
 */
export function sessionOptions(tls: TlsOptions | undefined): http2.SecureClientSessionOptions {
  if (!tls) {
    return {};
  }
  const { ca, cert, key, serverName } = tls;
  const options: http2.SecureClientSessionOptions = {
    ...(ca !== undefined ? { ca: pemText(ca) } : {}),
    ...(cert !== undefined ? { cert: pemText(cert) } : {}),
    ...(key !== undefined ? { key: pemText(key) } : {}),
  };
  try {
    if (ca !== undefined) {
      checkCertificates(pemText(ca));
    }
    createSecureContext(options);
  } catch (error) {
    throw new TypeError(
      `the TLS material does not load (${error instanceof Error ? error.message : String(error)}); ` +
        `pass tls.ca, tls.cert and tls.key as PEM text or bytes`,
      { cause: error },
    );
  }
  if (serverName !== undefined && serverName !== "") {
    // SNI carries host names only (Node.js warns on an IP address); the
    // certificate is checked against serverName either way.
    if (!isIP(serverName)) {
      options.servername = serverName;
    }
    options.checkServerIdentity = (_host: string, peer: PeerCertificate) => checkServerIdentity(serverName, peer);
  }
  return options;
}

/** Throws unless `pem` holds one or more PEM certificates that parse (Node.js skips the ones that do not). */
function checkCertificates(pem: string | Buffer): void {
  const blocks = pem.toString().match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new Error("tls.ca holds no PEM certificate");
  }
  for (const block of blocks) {
    new X509Certificate(block);
  }
}

function pemText(pem: string | Uint8Array): string | Buffer {
  return typeof pem === "string" ? pem : Buffer.from(pem.buffer, pem.byteOffset, pem.byteLength);
}

// --- connection failures -----------------------------------------------------

/** Socket errors: the server could not be reached, or the connection broke. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPROTO",
  "ERR_SOCKET_CLOSED",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
]);

/** HTTP/2 session errors: the connection failed or went away, not one call. */
const HTTP2_CODES = new Set([
  "ERR_HTTP2_ERROR",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_INVALID_SESSION",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_HTTP2_PING_CANCEL",
]);

/** The X.509 verification errors OpenSSL reports through Node.js (the server certificate is not trusted). */
const CERTIFICATE_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_CRL",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECRYPT_CRL_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_SIGNATURE_FAILURE",
  "CRL_SIGNATURE_FAILURE",
  "CERT_NOT_YET_VALID",
  "CERT_HAS_EXPIRED",
  "CRL_NOT_YET_VALID",
  "CRL_HAS_EXPIRED",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "ERROR_IN_CRL_LAST_UPDATE_FIELD",
  "ERROR_IN_CRL_NEXT_UPDATE_FIELD",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_CHAIN_TOO_LONG",
  "CERT_REVOKED",
  "INVALID_CA",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
]);

function nodeCodeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** Is this Node.js error code one of a failed, refused or broken connection? */
export function isConnectionFailureCode(code: string): boolean {
  return (
    SOCKET_CODES.has(code) ||
    HTTP2_CODES.has(code) ||
    CERTIFICATE_CODES.has(code) ||
    code.startsWith("ERR_SSL_") ||
    code.startsWith("ERR_TLS_")
  );
}

/**
 * The UNAVAILABLE error of a call that failed because its connection could not
 * be made or broke (a refused or reset socket, a failed TLS handshake, an
 * untrusted server certificate, an HTTP/2 session error); undefined for any
 * other error, such as a status the server sent or a cancellation by the caller.
 */
export function connectionFailure(error: unknown): ConnectError | undefined {
  if (!(error instanceof Error)) {
    return undefined;
  }
  if (error instanceof ConnectError && (error.code === Code.Unavailable || error.metadata.has("grpc-status"))) {
    return undefined;
  }
  const seen = new Set<unknown>();
  for (let link: unknown = error; link instanceof Error && !seen.has(link); link = link.cause) {
    seen.add(link);
    const code = nodeCodeOf(link);
    if (code !== undefined && isConnectionFailureCode(code)) {
      const failure = new ConnectError(`connection failed: ${link.message} (${code})`, Code.Unavailable);
      failure.cause = error;
      return failure;
    }
  }
  return undefined;
}

/**
 * Turns connection failures into UNAVAILABLE for the interceptors outside it
 * (the retries among them): the innermost interceptor of the client.
 */
export function connectionFailures(): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      throw connectionFailure(error) ?? error;
    }
  };
}

/**
 * connect-node's Http2SessionManager, which also reports a call whose
 * connection closed under it (the server hung up, e.g. on a plaintext client
 * at its TLS port, before or while it answered) as UNAVAILABLE instead of the
 * CANCELLED of the stream's RST_STREAM(CANCEL) that Node.js records then. A
 * stream the server itself cancels on a live connection stays CANCELLED, and
 * a call the caller cancels or the client's close() aborts is reported as
 * that.
 */
export class GrpcSessionManager extends Http2SessionManager {
  override async request(
    method: string,
    path: string,
    headers: http2.OutgoingHttpHeaders,
    options: Omit<http2.ClientSessionRequestOptions, "signal">,
  ): Promise<http2.ClientHttp2Stream> {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = await super.request(method, path, headers, options);
    } catch (error) {
      throw connectionFailure(error) ?? error;
    }
    const session = stream.session;
    let errored = false;
    // Registered before connect-node's own listeners (which it adds once this
    // promise resolves), so the error below is the one the call fails with.
    stream.once("error", () => {
      errored = true;
    });
    stream.once("close", () => {
      const dropped = session === undefined || session.closed || session.destroyed;
      if (errored || !dropped || stream.rstCode !== http2.constants.NGHTTP2_CANCEL) {
        return;
      }
      errored = true;
      stream.emit(
        "error",
        new ConnectError(`the connection to ${this.authority} closed before the call completed`, Code.Unavailable),
      );
    });
    return stream;
  }
}
