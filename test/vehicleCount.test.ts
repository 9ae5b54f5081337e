// The list's total without a search comes from a count kept by database triggers: it must equal
// the real number of rows after any mix of concurrent creates and deletes.
import { startService, type TestService } from "./support/service";
import { client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

async function realCount(networkId: number) {
  return service.db.prisma.vehicle.count({ where: { networkId } });
}

test("the kept count equals the rows after concurrent creates and deletes in two networks", async () => {
  const networks = [await service.network(), await service.network()];
  const apis = networks.map((network) => client(service.url, network.apiKey));
  const created = await Promise.all(
    Array.from({ length: 40 }, (_, i) => apis[i % 2].post("/vehicles", { plate: `CNT-${i}` })),
  );
  expect(created.every((response) => response.status === 201)).toBe(true);
  const deletions = created
    .filter((_, i) => i % 4 < 2)
    .map((response, i) => apis[i % 2].delete(`/vehicles/${response.body.data.id}`));
  // A failed create (422) and a delete of another network's vehicle (404) change no count.
  const refused = [apis[0].post("/vehicles", { plate: "" }), apis[1].delete(`/vehicles/${created[0].body.data.id}`)];
  await Promise.all([...deletions, ...refused]);

  for (const [index, network] of networks.entries()) {
    const listed = await apis[index].get("/vehicles");
    expect(listed.body.meta.total).toBe(await realCount(network.id));
    expect(listed.body.meta.total).toBe(10);
  }
});

test("a search counts its matches, not the network", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  await Promise.all(["Alpha", "Beta", "Alphabet"].map((owner, i) => api.post("/vehicles", { plate: `S-${i}`, owner })));
  expect((await api.get("/vehicles?search=alpha")).body.meta.total).toBe(2);
  expect((await api.get("/vehicles")).body.meta.total).toBe(3);
});

test("search follows every write: create, update of a searched field, delete", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const totalFor = async (term: string) => (await api.get(`/vehicles?search=${encodeURIComponent(term)}`)).body.meta.total;
  const created = (await api.post("/vehicles", { plate: "FTS-1", owner: "Zacharias Öztürk" })).body.data;
  expect(await totalFor("öztürk")).toBe(1);
  expect(await totalFor("ÖZT")).toBe(1);
  await api.patch(`/vehicles/${created.id}`, { owner: "Jürgen Weiß" });
  expect(await totalFor("öztürk")).toBe(0);
  expect(await totalFor("weiß")).toBe(1);
  await api.patch(`/vehicles/${created.id}`, { comment: "öztürk is not searched" });
  expect(await totalFor("öztürk")).toBe(0);
  await api.delete(`/vehicles/${created.id}`);
  expect(await totalFor("weiß")).toBe(0);
  expect(await totalFor("fts-1")).toBe(0);
});
