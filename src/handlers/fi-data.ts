import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/fiu.ts";
import type { QueryParams, RequestBody } from "../http/types.ts";
import { fiDataJson } from "../serialization/fi-data-json.ts";
import { fiDataResponseXml, rebitAccountXml } from "../serialization/xml.ts";
import { acceptsJson } from "../http/error-handler.ts";
import { notModified } from "../http/etag.ts";
import { API_VERSION } from "../http/error-bodies.ts";
import type { Handler, HandlerMap } from "./handler.ts";

type Op = operations;

export function fiDataHandlers(ctx: AppContext) {
  const { fiDataReads } = ctx;
  return {
    getFiData: (async (request, reply) => {
      const query = request.query;
      const page = await fiDataReads.page(
        { organisationId: request.tenant!.organisationId, ...request.body },
        { limit: query.limit === true, offset: query.offset === true, cursor: query.cursor },
      );
      if (notModified(request, reply, `${page.version}-json`)) return reply;
      return fiDataJson(page);
    }) satisfies Handler<{ Body: RequestBody<Op["getFiData"]>; Querystring: QueryParams<Op["getFiData"]> }>,

    getFiDataXml: (async (request, reply) => {
      const read = { organisationId: request.tenant!.organisationId, ...request.body };
      if (acceptsJson(request)) {
        const account = await fiDataReads.rebitAccount(read);
        if (notModified(request, reply, `${account.version}-rebit`)) return reply;
        return {
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
        };
      }
      const page = await fiDataReads.page(read, { limit: false, offset: false });
      if (notModified(request, reply, `${page.version}-xml`)) return reply;
      return reply.type("application/xml; charset=utf-8").send(fiDataResponseXml(page.header, page.transactions));
    }) satisfies Handler<{ Body: RequestBody<Op["getFiDataXml"]> }>,
  } satisfies HandlerMap;
}
