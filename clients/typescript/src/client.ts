/**
 * createMemorydClient: the connect client of memoryd.v1.MemoryService with
 * deadlines, retries, request ids, read-your-writes and typed errors around it.
 */
import { randomUUID } from "node:crypto";
import {
  clone,
  create,
  isMessage,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { createClient, type CallOptions as ConnectCallOptions, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Memory } from "./gen/memoryd/v1/memory_pb.js";
import {
  BatchCreateMemoriesRequestSchema,
  CreateMemoryRequestSchema,
  DeleteMemoryRequestSchema,
  ForgetMemoriesRequestSchema,
  GetMemoryRequestSchema,
  GetWriteStatusRequestSchema,
  ListMemoriesRequestSchema,
  MemoryService,
  PreloadRequestSchema,
  SearchMemoriesRequestSchema,
  UpdateMemoryRequestSchema,
  WatchMemoriesRequestSchema,
  WriteState,
  type BatchCreateMemoriesResponse,
  type CreateMemoryResponse,
  type DeleteMemoryResponse,
  type ForgetMemoriesResponse,
  type GetMemoryResponse,
  type GetWriteStatusResponse,
  type ListMemoriesResponse,
  type PreloadRequest,
  type PreloadResponse,
  type SearchMemoriesResponse,
  type UpdateMemoryResponse,
} from "./gen/memoryd/v1/memory_service_pb.js";
import { ScopeWrites } from "./consistency.js";
import {
  BadRequestError,
  DeadlineExceededError,
  MemorydError,
  UnavailableError,
  errorFromStatus,
  toMemorydError,
} from "./errors.js";
import {
  Backoff,
  bearerToken,
  linkedController,
  requestIdHeader,
  retryOnUnavailable,
  sleep,
  traceContext,
} from "./interceptors.js";
import { resolveOptions, type MemorydClientOptions, type ResolvedOptions } from "./options.js";
import { forgetKeys, readsOf, scopeKeys, type Keys, type ScopeIds } from "./scope-keys.js";
import { GrpcSessionManager, connectionFailures, sessionOptions } from "./transport.js";
import { watchEvents, type WatchEvent } from "./watch.js";

/** Options of one call. */
export interface CallOptions {
  /** This call's deadline in ms, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Cancels the call when aborted. */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: ConnectCallOptions["headers"];
}

/** A request: the generated message, or its init shape (a plain object). */
export type RequestInit<Desc extends DescMessage> = MessageInitShape<Desc>;

/** One event of the Preload stream: the `event` oneof of a PreloadResponse. */
export type PreloadEvent = Exclude<PreloadResponse["event"], { case: undefined }>;

/** The memoryd client: one method per RPC, plus helpers. */
export interface MemorydClient {
  /** The options the client was created with, defaults filled in. */
  readonly options: ResolvedOptions;
  /** This client's writes in flight and newest write_token, per scope. */
  readonly writes: ScopeWrites;
  /** The raw connect client (no retries of Preload, request ids or read-your-writes). */
  readonly raw: Client<typeof MemoryService>;

  createMemory(request: RequestInit<typeof CreateMemoryRequestSchema>, options?: CallOptions): Promise<CreateMemoryResponse>;
  batchCreateMemories(
    request: RequestInit<typeof BatchCreateMemoriesRequestSchema>,
    options?: CallOptions,
  ): Promise<BatchCreateMemoriesResponse>;
  getMemory(request: RequestInit<typeof GetMemoryRequestSchema>, options?: CallOptions): Promise<GetMemoryResponse>;
  listMemories(request: RequestInit<typeof ListMemoriesRequestSchema>, options?: CallOptions): Promise<ListMemoriesResponse>;
  /**
   * Every memory the list request selects, newest first, fetching page after
   * page (`pageSize` is the page size). `timeoutMs` applies to each page.
   */
  listAllMemories(request: RequestInit<typeof ListMemoriesRequestSchema>, options?: CallOptions): AsyncGenerator<Memory, void, undefined>;
  updateMemory(request: RequestInit<typeof UpdateMemoryRequestSchema>, options?: CallOptions): Promise<UpdateMemoryResponse>;
  deleteMemory(request: RequestInit<typeof DeleteMemoryRequestSchema>, options?: CallOptions): Promise<DeleteMemoryResponse>;
  searchMemories(
    request: RequestInit<typeof SearchMemoriesRequestSchema>,
    options?: CallOptions,
  ): Promise<SearchMemoriesResponse>;
  forgetMemories(
    request: RequestInit<typeof ForgetMemoriesRequestSchema>,
    options?: CallOptions,
  ): Promise<ForgetMemoriesResponse>;
  getWriteStatus(
    request: RequestInit<typeof GetWriteStatusRequestSchema>,
    options?: CallOptions,
  ): Promise<GetWriteStatusResponse>;
  /**
   * Polls GetWriteStatus until the write is applied and returns its status.
   * Throws the write's own typed error if it FAILED, and DeadlineExceededError
   * if it is still pending when `timeoutMs` passes.
   */
  waitForWrite(writeToken: string, options?: CallOptions): Promise<GetWriteStatusResponse>;
  /**
   * The Preload stream: a `hits` event per scope as soon as it is searched, then
   * `context`, then `done`; or a single `not_modified`. Each event is the
   * PreloadResponse `event` oneof (`switch (event.case)`). `timeoutMs` bounds the
   * whole stream. Errors are thrown, typed, while iterating; leaving the loop
   * early cancels the call.
   */
  preload(request: RequestInit<typeof PreloadRequestSchema>, options?: CallOptions): AsyncGenerator<PreloadEvent, void, undefined>;
  /**
   * Runs Preload and returns the text of its context block, ready to be a
   * system message: "" when no memory is included, and "" when the stream is
   * `not_modified` (the `if_none_match` etag still holds: keep the block you
   * have; use `preload` to tell the two apart).
   */
  preloadContext(request: RequestInit<typeof PreloadRequestSchema>, options?: CallOptions): Promise<string>;
  /**
   * The WatchMemories stream: `started` first (the sequence it continues
   * after), then a `change` per applied change to the scope's memories
   * (created, updated, deleted, expired), in sequence order; a `fellBehind`
   * ends it for a consumer that read too slowly. `startAfterSequence` resumes
   * after the last sequence received (unset: from now on). No deadline unless
   * `timeoutMs` is given: leave the loop or abort `signal` to stop. Errors are
   * thrown, typed: a `startAfterSequence` outside the kept history is a
   * ChangeHistoryExpiredError.
   */
  watch(request: RequestInit<typeof WatchMemoriesRequestSchema>, options?: CallOptions): AsyncGenerator<WatchEvent, void, undefined>;
  /** Closes the connection; calls in flight are cancelled. A later call reconnects. */
  close(): void;
}

/** A request that names one scope, or (Preload) a user and an agent scope. */
type ScopedRead = {
  $typeName: string;
  consistencyToken: string;
  scope?: ScopeIds;
  userScope?: ScopeIds;
  agentScope?: ScopeIds;
};

/** The field a server names when it refuses a read's consistency_token. */
const TOKEN_FIELD = "consistency_token";

/** Polling bounds of waitForWrite, in ms. */
const POLL_START_MS = 5;
const POLL_MAX_MS = 200;

/** A full message of `schema` from a message (copied, never changed) or an init shape. */
function messageOf<Desc extends DescMessage>(schema: Desc, request: MessageInitShape<Desc>): MessageShape<Desc> {
  return isMessage(request, schema) ? clone(schema, request) : create(schema, request);
}

function readKeysOf(request: ScopedRead): Keys {
  if (request.$typeName === PreloadRequestSchema.typeName) {
    return readsOf(request.agentScope ? [request.userScope, request.agentScope] : [request.userScope]);
  }
  return readsOf([request.scope]);
}

function deadlinePassed(): DeadlineExceededError {
  return new DeadlineExceededError({
    code: "DEADLINE_EXCEEDED",
    message: "the call's deadline passed before it could be sent",
  });
}

function tokenRefused(error: MemorydError): boolean {
  return error instanceof BadRequestError && error.fieldViolations.some((v) => v.field === TOKEN_FIELD);
}

/**
 * One read of a scope: wait for this client's writes into it that are in
 * flight, then send the request with the scope's newest write_token (unless the
 * caller set one); if the server refuses a token this read added, forget it and
 * send once more without it.
 */
class ConsistentRead<R extends ScopedRead> {
  readonly keys: Keys;
  private readonly deadline: number;
  private token = "";

  constructor(
    private readonly request: R,
    private readonly writes: ScopeWrites,
    budgetMs: number,
  ) {
    this.keys = readKeysOf(request);
    this.deadline = performance.now() + budgetMs;
  }

  /** Ms left until the read's deadline (at least 1); throws DeadlineExceededError past it. */
  timeLeft(): number {
    const left = this.deadline - performance.now();
    if (left <= 0) {
      throw deadlinePassed();
    }
    return Math.max(1, Math.floor(left));
  }

  /** Ms left until the read's deadline; 0 or less once it has passed. */
  msLeft(): number {
    return this.deadline - performance.now();
  }

  /** Waits for this client's writes in flight into the read's scopes, within the deadline. */
  async waitForWrites(signal?: AbortSignal): Promise<void> {
    await this.writes.wait(this.keys, this.deadline - performance.now(), signal);
  }

  /** The request to send first. */
  first(): R {
    if (!this.request.consistencyToken) {
      this.token = this.writes.tokenOf(this.keys);
    }
    if (!this.token) {
      return this.request;
    }
    return { ...this.request, consistencyToken: this.token };
  }

  /** The request to send again after `error`; throws `error` unless the server refused our token. */
  retry(error: MemorydError): R {
    if (!(this.token && tokenRefused(error))) {
      throw error;
    }
    this.writes.forgetToken(this.token);
    this.token = "";
    return this.request;
  }
}

/**
 * A memoryd client. Options are validated here (a TypeError or RangeError says
 * how to fix a bad one); the connection opens on the first call.
 *
 * ```ts
 * const client = createMemorydClient({ address: "localhost:50051", token: process.env.MEMORYD_TOKEN });
 * await client.createMemory({ memory: { content: "I'm in UTC-5", scope: { userId: "u1" } } });
 * const { results } = await client.searchMemories({ query: "timezone?", scope: { userId: "u1" } });
 * ```
 */
export function createMemorydClient(options: MemorydClientOptions = {}): MemorydClient {
  const resolved = resolveOptions(options);
  const writes = new ScopeWrites(resolved.maxScopes);
  const baseUrl = `${resolved.tls ? "https" : "http"}://${resolved.address}`;
  // The http2 session options (TLS: ca, cert, key, the name to verify) go to
  // the session manager, which makes the connections; the transport's own
  // nodeOptions are only used when it makes its own manager.
  const nodeOptions = sessionOptions(resolved.tls);
  const interceptors: Interceptor[] = [requestIdHeader()];
  if (resolved.token !== undefined) {
    interceptors.push(bearerToken(resolved.token));
  }
  // connectionFailures() is innermost, so retries and the caller's interceptors
  // see a failed connection or TLS handshake as UNAVAILABLE, as gRPC reports it.
  interceptors.push(traceContext(), retryOnUnavailable(resolved), ...resolved.interceptors, connectionFailures());

  let sessionManager = new GrpcSessionManager(baseUrl, {}, nodeOptions);
  let raw = createRaw();
  function createRaw(): Client<typeof MemoryService> {
    const transport = createGrpcTransport({
      baseUrl,
      sessionManager,
      interceptors,
      defaultTimeoutMs: resolved.timeoutMs,
    });
    return createClient(MemoryService, transport);
  }

  const budget = (call?: CallOptions): number => {
    const timeoutMs = call?.timeoutMs ?? resolved.timeoutMs;
    if (!(typeof timeoutMs === "number" && timeoutMs > 0)) {
      throw new RangeError(`timeoutMs is ${String(timeoutMs)}; pass a positive number of milliseconds`);
    }
    return timeoutMs;
  };

  async function send<Req, Res>(
    method: (request: Req, options: CallOptions) => Promise<Res>,
    request: Req,
    timeoutMs: number,
    call?: CallOptions,
  ): Promise<Res> {
    try {
      return await method(request, { timeoutMs, signal: call?.signal, headers: call?.headers });
    } catch (error) {
      throw toMemorydError(error);
    }
  }

  async function write<Desc extends DescMessage, Res extends { writeToken: string }>(
    schema: Desc,
    method: (request: MessageShape<Desc>, options: CallOptions) => Promise<Res>,
    init: MessageInitShape<Desc>,
    keysOf: (request: MessageShape<Desc>) => string[],
    call?: CallOptions,
  ): Promise<Res> {
    const timeoutMs = budget(call);
    const request = messageOf(schema, init) as MessageShape<Desc> & { requestId: string };
    if (!request.requestId) {
      request.requestId = randomUUID();
    }
    const inFlight = writes.begin(new Set(keysOf(request)));
    let token = "";
    try {
      const response = await send(method, request, timeoutMs, call);
      token = response.writeToken;
      return response;
    } finally {
      writes.finish(inFlight, token);
    }
  }

  async function read<Desc extends DescMessage, Res>(
    schema: Desc,
    method: (request: MessageShape<Desc>, options: CallOptions) => Promise<Res>,
    init: MessageInitShape<Desc>,
    call?: CallOptions,
  ): Promise<Res> {
    const request = messageOf(schema, init) as MessageShape<Desc> & ScopedRead;
    const consistent = new ConsistentRead(request, writes, budget(call));
    await consistent.waitForWrites(call?.signal);
    try {
      return await send(method, consistent.first(), consistent.timeLeft(), call);
    } catch (error) {
      const retried = consistent.retry(toMemorydError(error));
      return await send(method, retried, consistent.timeLeft(), call);
    }
  }

  const client: MemorydClient = {
    options: resolved,
    writes,
    get raw() {
      return raw;
    },

    createMemory: (request, call) =>
      write(CreateMemoryRequestSchema, raw.createMemory, request, (r) => scopeKeys(r.memory?.scope), call),
    batchCreateMemories: (request, call) =>
      write(
        BatchCreateMemoriesRequestSchema,
        raw.batchCreateMemories,
        request,
        (r) => r.requests.flatMap((item) => scopeKeys(item.memory?.scope)),
        call,
      ),
    updateMemory: (request, call) =>
      write(UpdateMemoryRequestSchema, raw.updateMemory, request, (r) => scopeKeys(r.memory?.scope), call),
    deleteMemory: (request, call) =>
      write(DeleteMemoryRequestSchema, raw.deleteMemory, request, (r) => scopeKeys(r.scope), call),
    forgetMemories: (request, call) =>
      write(ForgetMemoriesRequestSchema, raw.forgetMemories, request, (r) => forgetKeys(r.scope), call),

    getMemory: (request, call) => read(GetMemoryRequestSchema, raw.getMemory, request, call),
    listMemories: (request, call) => read(ListMemoriesRequestSchema, raw.listMemories, request, call),
    searchMemories: (request, call) => read(SearchMemoriesRequestSchema, raw.searchMemories, request, call),

    async *listAllMemories(request, call) {
      const page = messageOf(ListMemoriesRequestSchema, request);
      for (;;) {
        const response = await client.listMemories(page, call);
        yield* response.memories;
        if (!response.nextPageToken) {
          return;
        }
        page.pageToken = response.nextPageToken;
      }
    },

    getWriteStatus: (request, call) =>
      send(raw.getWriteStatus, messageOf(GetWriteStatusRequestSchema, request), budget(call), call),

    async waitForWrite(writeToken, call) {
      const deadline = performance.now() + budget(call);
      let pause = POLL_START_MS;
      for (;;) {
        const left = Math.floor(deadline - performance.now());
        if (left <= 0) {
          throw new DeadlineExceededError({ code: "DEADLINE_EXCEEDED", message: `write ${writeToken} is still pending` });
        }
        const status = await client.getWriteStatus({ writeToken }, { ...call, timeoutMs: left });
        if (status.state === WriteState.APPLIED) {
          return status;
        }
        if (status.state === WriteState.FAILED && status.error) {
          throw errorFromStatus(status.error);
        }
        if (performance.now() + pause >= deadline) {
          throw new DeadlineExceededError({ code: "DEADLINE_EXCEEDED", message: `write ${writeToken} is still pending` });
        }
        await sleep(pause, call?.signal);
        pause = Math.min(pause * 2, POLL_MAX_MS);
      }
    },

    async *preload(request, call) {
      const message: PreloadRequest = messageOf(PreloadRequestSchema, request);
      const consistent = new ConsistentRead(message, writes, budget(call));
      await consistent.waitForWrites(call?.signal);
      let sent = consistent.first();
      let started = false;
      const backoff = new Backoff(resolved);
      for (let attempt = 1; ; attempt++) {
        const controller = linkedController(call?.signal);
        try {
          const stream = raw.preload(sent, {
            timeoutMs: consistent.timeLeft(),
            signal: controller.signal,
            headers: call?.headers,
          });
          for await (const response of stream) {
            if (response.event.case !== undefined) {
              started = true;
              yield response.event;
            }
          }
          return;
        } catch (thrown) {
          const error = toMemorydError(thrown);
          if (started) {
            throw error;
          }
          if (error instanceof UnavailableError && attempt < resolved.maxAttempts) {
            const pause = backoff.pause();
            if (pause < consistent.msLeft()) {
              await sleep(pause, call?.signal);
              continue;
            }
          }
          sent = consistent.retry(error);
        } finally {
          controller.abort();
        }
      }
    },

    async preloadContext(request, call) {
      let text = "";
      for await (const event of client.preload(request, call)) {
        if (event.case === "context") {
          text = event.value.text;
        }
      }
      return text;
    },

    watch: (request, call) => watchEvents(() => raw, resolved, messageOf(WatchMemoriesRequestSchema, request), call),

    close() {
      sessionManager.abort();
      sessionManager = new GrpcSessionManager(baseUrl, {}, nodeOptions);
      raw = createRaw();
    },
  };
  return client;
}
