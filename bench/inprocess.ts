// CPU cost per request of the app itself (no sockets), measured with process.cpuUsage: stays
// meaningful on a busy machine, where wall-clock load tests do not. Usage:
//   tsx bench/inprocess.ts <database-url> <api-key> [path ...]
import { openDatabase } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { createApp } from "../src/server/app";

async function main() {
  const [url, apiKey, ...paths] = process.argv.slice(2);
  await migrate(url);
  const db = await openDatabase(url);
  const app = createApp({ db });
  const targets = paths.length > 0 ? paths : ["/vehicles/5", "/vehicles", "/vehicles?search=owner%201&sort_field=owner"];
  for (const path of targets) {
    const request = () =>
      path.startsWith("gql:")
        ? new Request("http://bench/graphql", {
            method: "POST",
            headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
            body: JSON.stringify({ query: path.slice(4) }),
          })
        : new Request(`http://bench${path}`, { headers: { "X-API-Key": apiKey } });
    for (let i = 0; i < 300; i++) await (await app.fetch(request())).text();
    const n = Number(process.env.BENCH_N ?? 2000);
    const before = process.cpuUsage();
    const started = process.hrtime.bigint();
    let status = 0;
    for (let i = 0; i < n; i++) {
      const response = await app.fetch(request());
      status = response.status;
      await response.text();
    }
    const cpu = process.cpuUsage(before);
    const wallUs = Number(process.hrtime.bigint() - started) / 1000 / n;
    console.log(`${path.padEnd(50)} status ${status}  cpu ${((cpu.user + cpu.system) / n).toFixed(0)} us/req  wall ${wallUs.toFixed(0)} us/req`);
  }
  // The process's peak resident memory (VmHWM) over the whole run.
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await db.close();
}
main();
