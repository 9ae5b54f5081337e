// The HTTP server's writer of fetch Responses (src/server/sendResponse.ts): status, headers and
// bodies as the client must see them, and never a Connection header of the response's own.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { Response } from "@whatwg-node/fetch";
import { sendResponse } from "../src/server/sendResponse";

/** Serves one response for every request and answers the raw HTTP text a client receives. */
async function rawAnswer(makeResponse: () => Response, method = "GET"): Promise<string> {
  const server = http.createServer((request, response) => void sendResponse(makeResponse(), response, request));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString("utf8")));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
  } finally {
    server.close();
  }
}

const headOf = (raw: string) => raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase().split("\r\n");
const bodyOf = (raw: string) => raw.slice(raw.indexOf("\r\n\r\n") + 4);

test("a string body goes out whole, with the response's status and every header, once", async () => {
  const body = JSON.stringify({ message: "Grüße" });
  const raw = await rawAnswer(
    () => new Response(body, { status: 429, headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": "7" } }),
  );
  const head = headOf(raw);
  expect(head[0]).toBe("http/1.1 429 too many requests");
  expect(head).toContain("content-type: application/json; charset=utf-8");
  expect(head).toContain("retry-after: 7");
  expect(head.filter((line) => line.startsWith("content-length:"))).toEqual([`content-length: ${Buffer.byteLength(body)}`]);
  expect(bodyOf(raw)).toBe(body);
});

test("a streamed body and an empty one go through the adapter's writer", async () => {
  const stream = () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("part one, "));
          controller.enqueue(new TextEncoder().encode("part two"));
          controller.close();
        },
      }),
      { headers: { "Content-Type": "text/plain" } },
    );
  const streamed = await rawAnswer(stream);
  expect(headOf(streamed)).toContain("content-type: text/plain");
  // Chunked transfer: the parts arrive framed, in order.
  expect(bodyOf(streamed).replace(/\r\n[0-9a-f]+\r\n/g, "").replace(/^[0-9a-f]+\r\n/, "")).toMatch(/^part one, part two/);
  const empty = await rawAnswer(() => new Response(null, { status: 204 }));
  expect(headOf(empty)[0]).toBe("http/1.1 204 no content");
  expect(bodyOf(empty)).toBe("");
});
