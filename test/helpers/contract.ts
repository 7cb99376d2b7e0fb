import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { loadDocument, type ApiDocumentName, type OpenApiDocument } from "../../src/http/specs.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat("binary", true);
const documents = new Map<ApiDocumentName, OpenApiDocument>();

function documentOf(name: ApiDocumentName): OpenApiDocument {
  let document = documents.get(name);
  if (!document) {
    document = loadDocument(name);
    ajv.addSchema({ $id: `${name}.json`, components: (document as unknown as { components: unknown }).components });
    documents.set(name, document);
  }
  return document;
}

/** Rewrites the document's local $refs so that ajv resolves them against the registered components. */
function rebase(schema: unknown, name: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebase(item, name));
  if (schema && typeof schema === "object") {
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, key === "$ref" && typeof value === "string" && value.startsWith("#/") ? `${name}.json${value}` : rebase(value, name)]),
    );
  }
  return schema;
}

/** Asserts that a JSON answer matches the published contract for that operation and status. */
export function expectContract(name: ApiDocumentName, operationId: string, status: number, body: unknown, mediaType = "application/json") {
  const document = documentOf(name);
  const operation = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === operationId) as { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> } | undefined;
  expect(operation, operationId).toBeDefined();
  let response = operation!.responses[String(status)];
  expect(response, `${operationId} documents ${status}`).toBeDefined();
  if (response?.$ref) {
    const path = response.$ref.replace(/^#\//, "").split("/");
    response = path.reduce<any>((node, key) => node[key], document);
  }
  const schema = response?.content?.[mediaType]?.schema;
  expect(schema, `${operationId} ${status} ${mediaType} schema`).toBeDefined();
  const validate = ajv.compile(rebase(schema, name) as object);
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${operationId} ${status} body matches the contract`).toEqual([]);
}
