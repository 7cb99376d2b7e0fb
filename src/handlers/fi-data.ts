import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/fiu.ts";
import type { QueryParams, RequestBody } from "../http/types.ts";
import { Readable } from "node:stream";
import { fiDataJsonParts, partsWithTime } from "../serialization/fi-data-json.ts";
import type { Rendered } from "../domain/fi-data/reading.ts";
import { fiDataResponseXml, rebitAccountXml } from "../serialization/xml.ts";
import { acceptsJson } from "../http/error-handler.ts";
import { etagMatches } from "../http/etag.ts";
import { API_VERSION } from "../http/error-bodies.ts";
import type { Handler, HandlerMap } from "./handler.ts";

type Op = operations;
const JSON_TYPE = "application/json; charset=utf-8";
const XML_TYPE = "application/xml; charset=utf-8";

/**
 * Answers a rendered page: 304 when the caller holds this version, the bytes otherwise. Cached
 * parts are written as they are (no copy of a large body per response).
 */
function send(reply: FastifyReply, rendered: Rendered, type: string) {
  reply.header("etag", `W/"${rendered.version}"`);
  if (rendered.parts === null) return reply.code(304).send();
  const parts = partsWithTime(rendered.parts);
  reply.type(type);
  if (parts.length === 1) return reply.send(parts[0]);
  reply.header("content-length", parts.reduce((sum, part) => sum + part.length, 0));
  return reply.send(Readable.from(parts, { objectMode: false }));
}

const utf8 = (text: string) => [Buffer.from(text)];

export function fiDataHandlers(ctx: AppContext) {
  const { fiDataReads } = ctx;
  const holds = (request: FastifyRequest) => (version: string) => etagMatches(request, version);
  return {
    getFiData: (async (request, reply) => {
      const query = request.query;
      const rendered = await fiDataReads.renderPage(
        { organisationId: request.tenant!.organisationId, ...request.body },
        { limit: query.limit === true, offset: query.offset === true, cursor: query.cursor },
        "json",
        fiDataJsonParts,
        holds(request),
      );
      return send(reply, rendered, JSON_TYPE);
    }) satisfies Handler<{ Body: RequestBody<Op["getFiData"]>; Querystring: QueryParams<Op["getFiData"]> }>,

    getFiDataXml: (async (request, reply) => {
      const read = { organisationId: request.tenant!.organisationId, ...request.body };
      if (acceptsJson(request)) {
        const rendered = await fiDataReads.renderRebitAccount(
          read,
          (account) =>
            utf8(JSON.stringify({
              ver: API_VERSION,
              status: "success",
              data: [
                {
                  linkRefNumber: account.header.linkReferenceNumber,
                  maskedAccNumber: account.header.maskedAccountNumber,
                  xmlData: rebitAccountXml({ ...account, linkReferenceNumber: account.header.linkReferenceNumber, maskedAccountNumber: account.header.maskedAccountNumber }),
                  fipId: account.header.fipId,
                  fipName: account.header.fipName,
                },
              ],
            })),
          holds(request),
        );
        return send(reply, rendered, JSON_TYPE);
      }
      const rendered = await fiDataReads.renderPage(read, { limit: false, offset: false }, "xml", (page) => utf8(fiDataResponseXml(page.header, page.transactions)), holds(request));
      return send(reply, rendered, XML_TYPE);
    }) satisfies Handler<{ Body: RequestBody<Op["getFiDataXml"]> }>,
  } satisfies HandlerMap;
}
