/**
 * The TypeScript conformance runner (tests/clients/scenario_suite/PROTOCOL.md):
 * JSON lines in on stdin, one JSON line out per request, each step one call of
 * the @memoryd/client wrapper. Logs go to stderr; stdout carries answers only.
 */
import { createInterface } from "node:readline";
import {
  create,
  fromJson,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  BatchCreateMemoriesRequestSchema,
  BatchCreateMemoriesResponseSchema,
  CreateMemoryRequestSchema,
  CreateMemoryResponseSchema,
  DeleteMemoryRequestSchema,
  DeleteMemoryResponseSchema,
  ForgetMemoriesRequestSchema,
  ForgetMemoriesResponseSchema,
  GetMemoryRequestSchema,
  GetMemoryResponseSchema,
  GetWriteStatusRequestSchema,
  GetWriteStatusResponseSchema,
  ListMemoriesRequestSchema,
  ListMemoriesResponseSchema,
  MemorySchema,
  MemorydError,
  PreloadRequestSchema,
  PreloadResponseSchema,
  SearchMemoriesRequestSchema,
  SearchMemoriesResponseSchema,
  UpdateMemoryRequestSchema,
  UpdateMemoryResponseSchema,
  createMemorydClient,
  type CallOptions,
  type MemorydClient,
  type TlsOptions,
} from "../src/index.js";

type Json = { [key: string]: JsonValue };

/** A request the runner cannot carry out: answered as a fault. */
class Fault extends Error {}

function print<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonValue {
  return toJson(schema, message, { useProtoFieldName: true });
}

function parse<Desc extends DescMessage>(schema: Desc, request: JsonValue): MessageShape<Desc> {
  try {
    return fromJson(schema, request);
  } catch (error) {
    throw new Fault(`cannot parse the request as ${schema.typeName}: ${String(error)}`);
  }
}

function errorJson(error: MemorydError): Json {
  return {
    code: error.code,
    reason: error.reason,
    message: error.message,
    field_violations: error.fieldViolations.map((v) => ({ field: v.field, description: v.description })),
  };
}

/** One unary RPC: its request and response types and the wrapper's method. */
interface Unary {
  request: DescMessage;
  response: DescMessage;
  call(client: MemorydClient, request: never, options: CallOptions): Promise<unknown>;
}

function unary<Req extends DescMessage, Res extends DescMessage>(
  request: Req,
  response: Res,
  call: (client: MemorydClient, request: MessageShape<Req>, options: CallOptions) => Promise<MessageShape<Res>>,
): Unary {
  return { request, response, call: call as Unary["call"] };
}

const UNARY: Record<string, Unary> = {
  CreateMemory: unary(CreateMemoryRequestSchema, CreateMemoryResponseSchema, (c, r, o) => c.createMemory(r, o)),
  BatchCreateMemories: unary(BatchCreateMemoriesRequestSchema, BatchCreateMemoriesResponseSchema, (c, r, o) =>
    c.batchCreateMemories(r, o),
  ),
  GetMemory: unary(GetMemoryRequestSchema, GetMemoryResponseSchema, (c, r, o) => c.getMemory(r, o)),
  ListMemories: unary(ListMemoriesRequestSchema, ListMemoriesResponseSchema, (c, r, o) => c.listMemories(r, o)),
  UpdateMemory: unary(UpdateMemoryRequestSchema, UpdateMemoryResponseSchema, (c, r, o) => c.updateMemory(r, o)),
  DeleteMemory: unary(DeleteMemoryRequestSchema, DeleteMemoryResponseSchema, (c, r, o) => c.deleteMemory(r, o)),
  SearchMemories: unary(SearchMemoriesRequestSchema, SearchMemoriesResponseSchema, (c, r, o) =>
    c.searchMemories(r, o),
  ),
  ForgetMemories: unary(ForgetMemoriesRequestSchema, ForgetMemoriesResponseSchema, (c, r, o) =>
    c.forgetMemories(r, o),
  ),
  GetWriteStatus: unary(GetWriteStatusRequestSchema, GetWriteStatusResponseSchema, (c, r, o) =>
    c.getWriteStatus(r, o),
  ),
};

class Runner {
  private client: MemorydClient | undefined;

  connect(target: string, token: string | null | undefined, timeoutMs: number, tls: TlsOptions | undefined): void {
    this.close();
    this.client = createMemorydClient({ address: target, token: token ?? undefined, timeoutMs, tls });
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }

  async call(rpc: string, request: JsonValue, timeoutMs: number | undefined): Promise<Json> {
    const client = this.client;
    if (!client) {
      return { fault: "call before connect" };
    }
    const options: CallOptions = timeoutMs === undefined ? {} : { timeoutMs };
    const known = UNARY[rpc];
    try {
      if (known) {
        const parsed = parse(known.request, request);
        const response = await known.call(client, parsed as never, options);
        return { response: print(known.response, response as MessageShape<DescMessage>) };
      }
      switch (rpc) {
        case "ListAllMemories": {
          const memories: JsonValue[] = [];
          for await (const memory of client.listAllMemories(parse(ListMemoriesRequestSchema, request), options)) {
            memories.push(print(MemorySchema, memory));
          }
          return { response: { memories } };
        }
        case "PreloadContext":
          return { response: { text: await client.preloadContext(parse(PreloadRequestSchema, request), options) } };
        case "Preload":
          return await this.preload(client, parse(PreloadRequestSchema, request), options);
        default:
          return { fault: `unknown rpc ${JSON.stringify(rpc)}` };
      }
    } catch (error) {
      if (error instanceof MemorydError) {
        return { error: errorJson(error) };
      }
      throw error;
    }
  }

  private async preload(
    client: MemorydClient,
    request: MessageShape<typeof PreloadRequestSchema>,
    options: CallOptions,
  ): Promise<Json> {
    const events: JsonValue[] = [];
    try {
      for await (const event of client.preload(request, options)) {
        events.push(print(PreloadResponseSchema, create(PreloadResponseSchema, { event })));
      }
    } catch (error) {
      if (error instanceof MemorydError) {
        return { events, error: errorJson(error) };
      }
      throw error;
    }
    return { events };
  }
}

/**
 * The connect op's `tls` ({"ca": PEM, "cert": PEM, "key": PEM}) as the
 * wrapper's TLS options: trust only that CA, and present the client
 * certificate and key when given (mutual TLS). Absent or null: plaintext.
 */
function tlsOf(tls: JsonValue | undefined): TlsOptions | undefined {
  if (tls === undefined || tls === null) {
    return undefined;
  }
  if (typeof tls !== "object" || Array.isArray(tls)) {
    throw new Fault(`tls must be an object {ca, cert?, key?}, not ${JSON.stringify(tls)}`);
  }
  const options: TlsOptions = {};
  for (const name of ["ca", "cert", "key"] as const) {
    const pem = tls[name];
    if (pem === undefined || pem === null) {
      continue;
    }
    if (typeof pem !== "string") {
      throw new Fault(`tls.${name} must be PEM text`);
    }
    options[name] = pem;
  }
  return options;
}

async function answer(runner: Runner, message: Json): Promise<Json> {
  switch (message["op"]) {
    case "connect":
      runner.connect(
        String(message["target"]),
        message["token"] as string | null,
        Number(message["timeout_ms"]),
        tlsOf(message["tls"]),
      );
      return { ok: true };
    case "call": {
      const timeoutMs = message["timeout_ms"];
      return await runner.call(
        String(message["rpc"]),
        message["request"] ?? {},
        typeof timeoutMs === "number" ? timeoutMs : undefined,
      );
    }
    case "close":
      runner.close();
      return { ok: true };
    default:
      return { fault: `unknown op ${JSON.stringify(message["op"])}` };
  }
}

async function main(): Promise<void> {
  const runner = new Runner();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) {
      continue;
    }
    const message = JSON.parse(line) as Json;
    let reply: Json;
    try {
      reply = await answer(runner, message);
    } catch (error) {
      reply = { fault: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      if (!(error instanceof Fault)) {
        console.error(error);
      }
    }
    process.stdout.write(JSON.stringify({ id: message["id"], ...reply }) + "\n");
  }
  runner.close();
}

await main();
