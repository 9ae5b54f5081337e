// `admin backup --to FILE` (issue: operations): a copy of the embedded database taken while the
// service runs and a client keeps writing restores into a new DATA_DIR, and the service started
// on it answers every write acknowledged before the backup began. On PostgreSQL it refuses
// (pg_dump is the tool there).
import fs from "node:fs";
import path from "node:path";
import { client } from "./support/http";
import { freshDatabase, temporaryDir, testProvider } from "./support/database";
import { runAdminAsync, startServiceProcess, type ServiceProcess } from "./support/process";

const admin = runAdminAsync;

const sqliteOnly = testProvider === "sqlite" ? test : test.skip;
const postgresOnly = testProvider === "postgresql" ? test : test.skip;

sqliteOnly("a backup taken during a stream of writes restores to a service that answers every write acknowledged before it began", async () => {
  const source = temporaryDir();
  const env = { DATA_DIR: source };
  const created = await admin(["network", "create", "--name", "Backup PD", "--identifier-type", "steam"], env);
  expect(created.code).toBe(0);
  const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };
  const services: ServiceProcess[] = [await startServiceProcess(env)];
  try {
    const api = client(services[0].url, apiKey);
    const acknowledged: { id: number; plate: string }[] = [];
    let writing = true;
    const stream = (async () => {
      for (let i = 0; writing; i++) {
        const response = await api.post("/vehicles", { plate: `BK-${i}`, owner: `Owner ${i}` });
        expect(response.status).toBe(201);
        acknowledged.push({ id: response.body.data.id, plate: response.body.data.plate });
      }
    })();
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 10));

    const before = [...acknowledged];
    const target = path.join(temporaryDir(), "copy.db");
    const backup = await admin(["backup", "--to", target], env);
    const duringBackup = acknowledged.length - before.length;
    writing = false;
    await stream;
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(backup.stdout)).toEqual({ backup: { file: target, bytes: fs.statSync(target).size } });
    // The stream went on while the copy was taken.
    expect(duringBackup).toBeGreaterThan(0);

    // Restore: the copy is the new DATA_DIR's database; the service starts on it as it is.
    const restored = temporaryDir();
    fs.copyFileSync(target, path.join(restored, "service.db"));
    services.push(await startServiceProcess({ DATA_DIR: restored }));
    const copy = client(services[1].url, apiKey);
    const list = await copy.get("/vehicles?per_page=1");
    expect(list.body.meta.total).toBeGreaterThanOrEqual(before.length);
    expect(list.body.meta.total).toBeLessThanOrEqual(acknowledged.length);
    for (const vehicle of before.filter((_, i) => i % 10 === 0 || i === before.length - 1)) {
      const read = await copy.get(`/vehicles/${vehicle.id}`);
      expect({ id: vehicle.id, status: read.status, plate: read.body.data?.plate }).toEqual({ id: vehicle.id, status: 200, plate: vehicle.plate });
    }
    // And it takes writes.
    expect((await copy.post("/vehicles", { plate: "AFTER-RESTORE" })).status).toBe(201);
  } finally {
    for (const service of services) await service.stop();
  }
});

sqliteOnly("an existing file is never overwritten; --to is required", async () => {
  const env = { DATA_DIR: temporaryDir() };
  const existing = path.join(temporaryDir(), "taken.db");
  fs.writeFileSync(existing, "keep me");
  const refused = await admin(["backup", "--to", existing], env);
  expect({ code: refused.code, stdout: refused.stdout, stderr: refused.stderr }).toEqual({ code: 1, stdout: "", stderr: `${existing} exists: back up to a new file.\n` });
  expect(fs.readFileSync(existing, "utf8")).toBe("keep me");
  const missing = await admin(["backup"], env);
  expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 2, stderr: expect.stringContaining("--to is required.") });
});

postgresOnly("on PostgreSQL the command refuses and names pg_dump", async () => {
  const database = await freshDatabase();
  const target = path.join(temporaryDir(), "copy.db");
  const refused = await admin(["backup", "--to", target], { DATABASE_URL: database.url });
  expect({ code: refused.code, stdout: refused.stdout, stderr: refused.stderr }).toEqual({ code: 1, stdout: "", stderr: expect.stringContaining("pg_dump") });
  expect(fs.existsSync(target)).toBe(false);
});
