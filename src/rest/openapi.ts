// PLACEHOLDER: replaced by the full OpenAPI document.
export function openApiDocument(): object {
  return { openapi: "3.1.0", info: { title: "Vehicle Records and Duty Time Service", version: "1.0.0" }, paths: {} };
}
