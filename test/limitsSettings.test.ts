// The limits are declared once (src/config/limits.ts): the README's configuration table lists each
// with its default, the environment sets each, and a limit set so reaches the running service.
import fs from "node:fs";
import path from "node:path";
import { defaultLimits, limitSpecs, type LimitName } from "../src/config/limits";
import { readSettings } from "../src/config/env";
import { startService } from "./support/service";
import { client } from "./support/http";

const specs = Object.entries(limitSpecs) as [LimitName, (typeof limitSpecs)[LimitName]][];

test("the README's configuration table lists every limit with its default and meaning", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
  for (const [, spec] of specs) expect(readme).toContain(`| \`${spec.env}\` | \`${spec.default}\` | ${spec.meaning} |`);
});

test("each limit is read from its environment variable; a value that is no positive integer is refused", () => {
  expect(readSettings({}).limits).toEqual(defaultLimits);
  for (const [name, spec] of specs) {
    expect(readSettings({ [spec.env]: "7" }).limits[name]).toBe(7);
    expect(() => readSettings({ [spec.env]: "many" })).toThrow(spec.env);
    expect(() => readSettings({ [spec.env]: "0" })).toThrow(spec.env);
  }
});

test("a limit set for the service is the one it enforces", async () => {
  const service = await startService({ limits: { graphqlMaxAliases: 2 } });
  try {
    const api = client(service.url, (await service.network()).apiKey);
    expect((await api.graphql("{ a: network { name } b: network { id } }")).status).toBe(200);
    const refused = await api.graphql("{ a: network { name } b: network { id } c: network { name } }");
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions).toEqual({ code: "BAD_USER_INPUT", limit: "aliases", max: 2 });
  } finally {
    await service.close();
  }
});
