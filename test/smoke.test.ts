import { startService, type TestService } from "./support/service";
import { client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

test("a vehicle created over REST is read back over REST and GraphQL", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const created = await api.post("/vehicles", { plate: "LS-1234", cartyp: "Vapid", tuv: "2027-03-01", wanted: 1 });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ plate: "LS-1234", carType: "Vapid", generalInspection: "2027-03-01", wanted: true });
  const read = await api.get(`/vehicles/${created.body.data.id}`);
  expect(read.body).toEqual(created.body);
  const list = await api.get("/vehicles");
  expect(list.body.meta).toMatchObject({ total: 1, per_page: 15, current_page: 1 });
  const gql = await api.graphql(`{ vehicle(id: ${created.body.data.id}) { plate carType } }`);
  expect(gql.body).toEqual({ data: { vehicle: { plate: "LS-1234", carType: "Vapid" } } });
});
