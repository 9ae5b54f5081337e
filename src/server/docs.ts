// PLACEHOLDER: replaced by the offline Swagger UI page.
import { errorJson } from "../rest/responses";
export async function serveDocs(_request: Request, _url: URL): Promise<Response> {
  return errorJson(404, "Not Found.");
}
