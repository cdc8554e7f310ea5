/**
 * The WatchMemories stream as an async iterator of its events, typed errors
 * and retries on UNAVAILABLE before the first event.
 */
import type { Client } from "@connectrpc/connect";
import type {
  MemoryService,
  WatchMemoriesRequest,
  WatchMemoriesResponse,
} from "./gen/memoryd/v1/memory_service_pb.js";
import type { CallOptions } from "./client.js";
import { UnavailableError, toMemorydError } from "./errors.js";
import { Backoff, linkedController, sleep, type RetryPolicy } from "./interceptors.js";

/**
 * One event of the WatchMemories stream: the `event` oneof of a
 * WatchMemoriesResponse. `switch (event.case)`:
 *
 * - `"started"`: the first event; `value.afterSequence` is the sequence the
 *   stream continues after;
 * - `"change"`: a MemoryChange, `value.sequence`, `value.type` (ChangeType),
 *   `value.memory` and `value.changeTime`;
 * - `"fellBehind"`: the last event of a consumer that read too slowly;
 *   resume with `startAfterSequence: value.resumeAfterSequence`.
 */
export type WatchEvent = Exclude<WatchMemoriesResponse["event"], { case: undefined }>;

/**
 * Runs WatchMemories and yields its events. There is no deadline unless
 * `call.timeoutMs` sets one: the stream runs until the caller stops iterating
 * (which cancels the call) or aborts `call.signal`, or the server ends it
 * (after `fellBehind`, or when it shuts down). A failure is thrown, typed;
 * UNAVAILABLE is retried as for unary calls while no event has come yet
 * (nothing can be missed then: the request is sent again as it was).
 */
export async function* watchEvents(
  raw: () => Client<typeof MemoryService>,
  policy: RetryPolicy,
  request: WatchMemoriesRequest,
  call?: CallOptions,
): AsyncGenerator<WatchEvent, void, undefined> {
  const timeoutMs = call?.timeoutMs;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
    throw new RangeError(`timeoutMs is ${String(timeoutMs)}; pass a positive number of milliseconds, or none for no deadline`);
  }
  const deadline = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
  const backoff = new Backoff(policy);
  let started = false;
  for (let attempt = 1; ; attempt++) {
    const controller = linkedController(call?.signal);
    try {
      // connect reads a timeoutMs of 0 as "no deadline".
      const left = deadline === undefined ? 0 : Math.max(1, Math.floor(deadline - performance.now()));
      const stream = raw().watchMemories(request, { timeoutMs: left, signal: controller.signal, headers: call?.headers });
      for await (const response of stream) {
        if (response.event.case !== undefined) {
          // An event of a newer server this client does not know is skipped.
          started = true;
          yield response.event;
        }
      }
      return;
    } catch (thrown) {
      const error = toMemorydError(thrown);
      if (started || !(error instanceof UnavailableError) || attempt >= policy.maxAttempts) {
        throw error;
      }
      const pause = backoff.pause();
      if (deadline !== undefined && performance.now() + pause >= deadline) {
        throw error;
      }
      await sleep(pause, call?.signal);
    } finally {
      controller.abort();
    }
  }
}
