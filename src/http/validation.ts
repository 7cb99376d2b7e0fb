import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

function createAjv(coerce: boolean) {
  const ajv = new Ajv2020({
    // OpenAPI adds keywords of its own (example, xml, discriminator) that JSON Schema does not know.
    strict: false,
    allErrors: false,
    useDefaults: true,
    coerceTypes: coerce ? "array" : false,
    removeAdditional: false,
  });
  addFormats.default(ajv);
  // OpenAPI's format for file parts of multipart bodies; the bytes are checked by the handler.
  ajv.addFormat("binary", true);
  return ajv;
}

const bodies = createAjv(false);
// Query strings, path parameters and headers arrive as text and are coerced to their types.
const parameters = createAjv(true);

/** Validates OpenAPI 3.1 (JSON Schema 2020-12) schemas; bodies are never coerced. */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === "body" ? bodies : parameters).compile(schema);
