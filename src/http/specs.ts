import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface OpenApiOperation {
  operationId: string;
  security?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  security?: Array<Record<string, unknown>>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  [key: string]: unknown;
}

export const API_DOCUMENTS = ["fiu", "pfm", "admin"] as const;
export type ApiDocumentName = (typeof API_DOCUMENTS)[number];

const BUNDLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../generated/openapi");
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** The bundled OpenAPI document (generated/openapi/<name>.json, built by `npm run generate`). */
export function loadDocument(name: ApiDocumentName): OpenApiDocument {
  return JSON.parse(readFileSync(path.join(BUNDLE_DIR, `${name}.json`), "utf8")) as OpenApiDocument;
}

export interface OperationRef {
  document: ApiDocumentName;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export function operationsOf(name: ApiDocumentName, document: OpenApiDocument = loadDocument(name)): OperationRef[] {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ document: name, method, path: route, operation })),
  );
}
