// Request bodies are read on node's stream, before the request becomes a fetch Request: reading
// them later through web streams (and Yoga's size-limiting TransformStream) cost a fifth of a
// small GraphQL request's CPU. The server adapter takes a body found on `request.body` as is.
import type { IncomingMessage } from "node:http";
import { maxBodyBytes } from "../rest/requestBody";

type NodeRequestWithBody = IncomingMessage & { body?: Buffer };

/**
 * Reads the body into `request.body`, stopping at the limit. A body over the limit is left
 * unread and its Content-Length is set to the bytes seen: the app refuses it with 413 from that
 * header alone (and closes the connection). A chunked body gets its true Content-Length, so
 * the app never has to read a body of unknown length.
 */
export function readBodyFirst(request: NodeRequestWithBody): Promise<void> {
  const declared = request.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBodyBytes) return Promise.resolve();
  if (declared === undefined && request.headers["transfer-encoding"] === undefined) return Promise.resolve();
  // Stream events, not an async iterator: a small body arrives in one chunk, and the iterator's
  // promise machinery cost more than reading it.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      // Stopping early must leave the socket open for the 413.
      request.off("data", onData).off("end", onEnd).off("error", reject).off("close", onClose).pause();
      request.headers["content-length"] = String(size);
      resolve();
    };
    const onEnd = () => {
      request.headers["content-length"] = String(size);
      delete request.headers["transfer-encoding"];
      if (size > 0) request.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      resolve();
    };
    // A client gone before the end: settled as an error (a no-op once resolved).
    const onClose = () => reject(new Error("request closed before its body ended"));
    request.on("data", onData).on("end", onEnd).on("error", reject).once("close", onClose);
  });
}
