import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allHandlers } from "../../src/handlers/index.ts";
import { API_DOCUMENTS, loadDocument, operationsOf, type ApiDocumentName } from "../../src/http/specs.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

const operationsDocumentSecurity = (name: ApiDocumentName) => loadDocument(name).security ?? [];
const operations = API_DOCUMENTS.flatMap((name) => operationsOf(name));

function concretePath(route: string): string {
  return route.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === "batch_id" || name === "consentID" ? "00000000-0000-4000-8000-000000000000" : "sample-id",
  );
}

describe("routing by operationId", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("has a handler for every operationId of every document, and no handler without an operation", () => {
    const handlers = Object.keys(allHandlers(service.ctx)).sort();
    const operationIds = operations.map((op) => op.operation.operationId).sort();
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(handlers).toEqual(operationIds);
  });

  it.each(operations.map((op) => [op.operation.operationId, op] as const))("routes %s to its handler behind its security", async (_id, op) => {
    const method = op.method.toUpperCase() as "GET" | "POST" | "PATCH";
    const url = concretePath(op.path);
    expect(service.app.hasRoute({ method, url: op.path.replace(/\{([^}]+)\}/g, ":$1") }), `${method} ${op.path}`).toBe(true);
    const response = await service.app.inject({ method, url });
    expect(response.body).not.toContain("No operation at");
    const secured = (op.operation.security ?? operationsDocumentSecurity(op.document)).length > 0;
    expect(response.statusCode).toBe(secured ? 401 : 200);
  });
});
