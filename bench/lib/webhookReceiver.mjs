// A webhook receiver in a process of its own, for bench/webhooks.ts: it answers 204 at once and
// counts what arrives, and each arrival's lag (now minus the event's occurredAt; one machine, one
// clock). Its own process, so that receiving (parsing 400 requests a second) does not take turns
// with the load generator in the bench's event loop: a receiver runs on other machines in
// production, and here it still costs the cores the service runs on.
// Over the IPC channel: it says {type: "listening", port} once; on {type: "stats"} it answers
// {type: "stats", arrivals, lags}.
import http from "node:http";

let arrivals = 0;
const lags = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    res.writeHead(204).end();
    arrivals++;
    lags.push(Date.now() - Date.parse(JSON.parse(body).occurredAt));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send({ type: "listening", port: server.address().port }));
process.on("message", (message) => {
  if (message?.type === "stats") process.send({ type: "stats", arrivals, lags });
});
// Ends with the bench: when its parent goes, the channel closes.
process.on("disconnect", () => process.exit(0));
