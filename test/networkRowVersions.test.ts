// PostgreSQL: a network's row is written by every change of the network (counts, versions, the
// event sequence) and locked FOR KEY SHARE by every write that references it (the foreign keys'
// checks). When two transactions do both at once (two service processes, or an operator's SQL), the
// row's old version gets a MultiXactId as its xmax, which PostgreSQL never marks with a hint bit:
// each later read of the row looks its members up again, until the page is pruned. The table's
// fillfactor (migration *_networks_fillfactor) has the network's accesses prune them once a few
// have gathered. This test makes such versions, as two processes would, then writes through the
// API, and reads the raw page.
import pg from "pg";
import { startService, testProvider, type TestService } from "./support/service";
import { client } from "./support/http";

/** HEAP_XMAX_IS_MULTI in a tuple's t_infomask (PostgreSQL's htup_details.h). */
const xmaxIsMulti = 0x1000;

(testProvider === "postgresql" ? describe : describe.skip)("a network's row versions locked by two transactions at once", () => {
  let service: TestService;
  let first: pg.Client;
  let second: pg.Client;

  beforeAll(async () => {
    service = await startService();
    first = new pg.Client({ connectionString: service.databaseUrl });
    second = new pg.Client({ connectionString: service.databaseUrl });
    await Promise.all([first.connect(), second.connect()]);
    await first.query("CREATE EXTENSION IF NOT EXISTS pageinspect");
  });
  afterAll(async () => {
    await Promise.all([first.end(), second.end()]);
    await service.close();
  });

  /** The row's page, read raw (a read through the buffer manager that prunes nothing). */
  async function versionsOnPage(page: number): Promise<{ multi: number }> {
    const { rows } = await first.query<{ infomask: number }>(
      `SELECT t_infomask AS infomask FROM heap_page_items(get_raw_page('networks', $1)) WHERE lp_flags = 1`,
      [page],
    );
    return { multi: rows.filter((row) => (row.infomask & xmaxIsMulti) !== 0).length };
  }

  test("are pruned as the network's writes go on, not left for VACUUM", async () => {
    const network = await service.network();
    const officer = await network.officer("steam:110000100000abc");
    const api = client(service.url, network.apiKey);
    const { rows } = await first.query<{ ctid: string }>(`SELECT ctid::text FROM networks WHERE id = $1`, [network.id]);
    const page = Number(/^\((\d+),/.exec(rows[0].ctid)![1]);

    // One transaction raises the row's version while another checks a key of it, then both commit:
    // what a toggle in one process and a start in another do.
    const rounds = 30;
    for (let round = 0; round < rounds; round++) {
      await first.query("BEGIN");
      await first.query(`UPDATE networks SET dutytime_version = dutytime_version + 1 WHERE id = $1`, [network.id]);
      await second.query("BEGIN");
      await second.query(`SELECT 1 FROM networks WHERE id = $1 FOR KEY SHARE`, [network.id]);
      await first.query("COMMIT");
      await second.query("COMMIT");
    }
    // Read raw before any other access: the last round's old version is there, with a MultiXactId.
    expect((await versionsOnPage(page)).multi).toBeGreaterThan(0);

    const toggled = await api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    expect(toggled.status).toBe(200);
    expect(toggled.body.data.onDuty).toBe(true);

    // A page is pruned once less than the fillfactor's share of it is free: the few versions that
    // fit in the rest may wait for the next access, not every round's (with the default fillfactor:
    // all of them).
    expect((await versionsOnPage(page)).multi).toBeLessThanOrEqual(rounds / 4);
  });
});
