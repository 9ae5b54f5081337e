// Request bodies on node's stream: read only when the app asks (once the key is admitted), within
// the size limit and a budget of bytes being read at once across all requests; and, for a
// request answered without reading its body (a refusal, a body over the limit), the answer first
// and then the rest of the upload read and dropped for a bounded time and size before the
// connection closes, so that the client, still sending, sees the answer instead of a reset.
// Reading on node's stream, not through web streams, keeps a small request's CPU low.
import type { IncomingMessage, ServerResponse } from "node:http";
import { discardAfterRefusal, maxBodyBytes } from "../config/limits";
import { errorJson, type Reply } from "../rest/responses";

/** Why a body could not be read: the reply is the answer (if anyone is left to read it). */
export class RequestBodyError extends Error {
  constructor(readonly reply: Reply) {
    super(reply.body ?? "");
  }
}

/** Bytes of bodies being read at once, across requests. */
export function bodyBudget(maxBytesInFlight: number) {
  let inFlight = 0;
  return {
    take(bytes: number): boolean {
      if (inFlight + bytes > maxBytesInFlight) return false;
      inFlight += bytes;
      return true;
    },
    give(bytes: number): void {
      inFlight -= bytes;
    },
  };
}
export type BodyBudget = ReturnType<typeof bodyBudget>;

/** Whether the request says it has a body (a length above 0, or chunked). */
export function sendsBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined;
}

const busy = () =>
  new RequestBodyError(errorJson(503, "The service is reading too many request bodies. Please retry.", { "Retry-After": "1" }));
const gone = () => new RequestBodyError(errorJson(400, "The request ended before its body."));

/**
 * The body as text, or null when it is over the limit (reading stops there; the rest is left to
 * `answerThenDiscard`). A client that asked for `100 Continue` is told to go on only now.
 */
export function readBody(request: IncomingMessage, response: ServerResponse, budget: BodyBudget): Promise<string | null> {
  if (!sendsBody(request)) return Promise.resolve("");
  const declared = request.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBodyBytes) return Promise.resolve(null);
  // The client left while its key was checked: the request and its socket have sent their last
  // events already, and listeners added now would wait forever.
  const { socket } = request;
  if (request.destroyed || socket.destroyed) return Promise.reject(gone());
  // A chunked body may grow to the limit: its share of the budget is the limit.
  const reserved = declared !== undefined ? Number(declared) : maxBodyBytes;
  if (!budget.take(reserved)) return Promise.reject(busy());
  if (request.headers.expect?.toLowerCase() === "100-continue") response.writeContinue();
  // Stream events, not an async iterator: a small body arrives in one chunk, and the iterator's
  // promise machinery cost more than reading it.
  return new Promise<string | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Every way out settles: it removes all the listeners at once, so the reserved bytes are
    // given back exactly once.
    const settle = () => {
      request.off("data", onData).off("end", onEnd).off("error", onClose).off("close", onClose);
      socket.off("close", onClose);
      budget.give(reserved);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      settle();
      request.pause();
      resolve(null);
    };
    const onEnd = () => {
      settle();
      resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString("utf8"));
    };
    const onClose = () => {
      settle();
      reject(gone());
    };
    request.on("data", onData).on("end", onEnd).on("error", onClose).once("close", onClose);
    // The request alone is not enough: a body cut short by the client's leaving is a protocol
    // error (HPE_INVALID_EOF_STATE), whose answer (./httpServer.ts) finishes the response; node
    // then detaches the request from its socket, and the request fires none of its events.
    // The socket's close always comes. It serves the connection's later requests too: the
    // listener goes with the read.
    socket.once("close", onClose);
  });
}

/**
 * Writes the reply while the request's body is still (partly) unread: head and body at once,
 * then the upload read and dropped until it ends, or until the bound of size or time, and the
 * connection closed. Closing at once would reset a connection the client is still writing to,
 * and many clients then report the reset, not the answer.
 */
export function answerThenDiscard(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  // The client is gone: nobody reads the answer or sends the rest (the timer below would only
  // keep the request for its ten seconds).
  if (request.destroyed || request.socket.destroyed) return;
  const body = reply.body ?? "";
  response.writeHead(reply.status, { ...reply.headers, "Content-Length": Buffer.byteLength(body), Connection: "close" });
  response.write(body);
  let dropped = 0;
  const finish = (destroy: boolean) => {
    clearTimeout(timer);
    request.off("data", onData).off("end", onEnd);
    response.end();
    if (destroy) response.once("finish", () => request.socket.destroy());
  };
  const onData = (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > discardAfterRefusal.bytes) finish(true);
  };
  const onEnd = () => finish(false);
  const timer = setTimeout(() => finish(true), discardAfterRefusal.ms);
  request.on("data", onData).on("end", onEnd).once("close", () => clearTimeout(timer));
  request.resume();
}
