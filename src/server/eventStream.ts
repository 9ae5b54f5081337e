// Subscriptions over SSE (graphql-sse's distinct connections mode, which Yoga serves): Yoga's own
// SSE writer, but each `next` frame carries `id: <sequence>` of its event, so that a browser's
// EventSource (or any client) reconnects with `Last-Event-ID` and resumes without a gap
// (src/server/app.ts reads it). Yoga's writer has no hook for ids: this one is chosen, through
// Yoga's public plugin API (onResultProcess), for every result stream.
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { ExecutionResult } from "graphql";
import { sequenceOf } from "./guardedSubscribe";

/** The answer's headers: no proxy may buffer the stream (nginx honours X-Accel-Buffering). */
const eventStreamHeaders = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "Content-Encoding": "none",
  "X-Accel-Buffering": "no",
};

/** One result as its SSE frame. */
function frameOf(result: ExecutionResult): string {
  const sequence = sequenceOf(result);
  const id = sequence === undefined ? "" : `id: ${sequence}\n`;
  return `${id}event: next\ndata: ${JSON.stringify(result)}\n\n`;
}

export function eventStreamsWithIds(heartbeatMs: number): Plugin {
  return {
    onResultProcess({ request, result, setResultProcessor }) {
      // Only where the client accepts an event stream: another Accept keeps Yoga's answer (406).
      if (!isAsyncIterable(result) || !request.headers.get("accept")?.includes("text/event-stream")) return;
      setResultProcessor((results, fetchAPI) => {
        const iterator = (results as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
        const encoder = new fetchAPI.TextEncoder();
        let heartbeat: NodeJS.Timeout | undefined;
        const stream = new fetchAPI.ReadableStream({
          start(controller) {
            // A first comment, so that clients see the answer's headers at once.
            controller.enqueue(encoder.encode(":\n\n"));
            heartbeat = setInterval(() => {
              if (controller.desiredSize === null) clearInterval(heartbeat);
              else if (controller.desiredSize > 0) controller.enqueue(encoder.encode(":\n\n"));
            }, heartbeatMs);
          },
          async pull(controller) {
            // Pulled only while the client reads: a slow one leaves the events in its own
            // bounded queue (src/events/feed.ts), not here.
            const next = await iterator.next();
            if (next.value) controller.enqueue(encoder.encode(frameOf(next.value)));
            if (next.done) {
              clearInterval(heartbeat);
              controller.enqueue(encoder.encode("event: complete\ndata:\n\n"));
              controller.close();
            }
          },
          async cancel() {
            clearInterval(heartbeat);
            await iterator.return?.();
          },
        });
        return new fetchAPI.Response(stream, { status: 200, headers: eventStreamHeaders });
      }, "text/event-stream");
    },
  };
}
