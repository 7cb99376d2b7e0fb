import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/fiu.ts";
import type { BatchView } from "../domain/bulk/service.ts";
import { BULK_API_VERSION } from "../http/error-bodies.ts";
import { readBulkUpload } from "../http/bulk-upload.ts";
import type { PathParams, QueryParams, ResponseBody } from "../http/types.ts";
import type { Handler, HandlerMap } from "./handler.ts";

type Op = operations;

function batchBody(view: BatchView): ResponseBody<Op["getBulkBatch"], 200> {
  return {
    ver: BULK_API_VERSION,
    status: "success",
    data: {
      batch_id: view.batch.id,
      reference_id: view.batch.referenceId,
      storage_type: "database",
      status: view.batch.status,
      total_records: view.batch.totalRecords,
      counts: view.counts,
      created_at: new Date(view.batch.createdAt).toISOString(),
      updated_at: new Date(view.batch.updatedAt).toISOString(),
      page: view.page,
      pageSize: view.pageSize,
      rows: view.rows.map((row) => ({
        row: row.rowNumber,
        consentId: row.consentId,
        fiDataRangeFrom: row.fiDataRangeFrom,
        fiDataRangeTo: row.fiDataRangeTo,
        configId: row.configId,
        state: row.state,
        journeyID: row.journeyId,
        failureReason: row.failureReason,
      })),
    },
  };
}

export function bulkHandlers(ctx: AppContext) {
  const { bulk } = ctx;
  return {
    scheduleBulkFiRequests: (async (request, reply): Promise<ResponseBody<Op["scheduleBulkFiRequests"], 202>> => {
      const upload = await readBulkUpload(request);
      const scheduled = await bulk.schedule(request.tenant!.organisationId, upload, request.txnid!);
      reply.code(202);
      return {
        ver: BULK_API_VERSION,
        timestamp: new Date().toISOString(),
        txnid: request.txnid!,
        status: "success",
        message: `File uploaded successfully; ${scheduled.totalRecords} FI request${scheduled.totalRecords === 1 ? "" : "s"} scheduled`,
        data: { reference_id: scheduled.referenceId, batch_id: scheduled.batchId, storage_type: "database", status: "FILE_UPLOADED", total_records: scheduled.totalRecords },
      };
    }) satisfies Handler,

    getBulkBatch: (async (request) =>
      batchBody(await bulk.view(request.tenant!.organisationId, { id: request.params.batch_id }, request.query.page ?? 1, request.query.pageSize ?? 100))) satisfies Handler<{
      Params: PathParams<Op["getBulkBatch"]>;
      Querystring: QueryParams<Op["getBulkBatch"]>;
    }>,

    getBulkBatchByReference: (async (request) =>
      batchBody(await bulk.view(request.tenant!.organisationId, { referenceId: request.params.reference_id }, request.query.page ?? 1, request.query.pageSize ?? 100))) satisfies Handler<{
      Params: PathParams<Op["getBulkBatchByReference"]>;
      Querystring: QueryParams<Op["getBulkBatchByReference"]>;
    }>,
  } satisfies HandlerMap;
}
