import { randomBytes } from "node:crypto";
import type { PgBoss } from "pg-boss";
import type { BatchRecord, BatchRowRecord, BulkRepository, RowState } from "../../db/repositories/bulk.ts";
import { isUniqueViolation } from "../../db/repositories/errors.ts";
import { executorFor } from "../../jobs/boss.ts";
import type { BulkFileType, RawBulkRow } from "../../serialization/bulk-file.ts";
import { invalidRequest, notFound, ServiceError } from "../errors.ts";
import { checkDefaults, resolveRows, type RangeDefaults } from "./rows.ts";

export const BULK_QUEUE = "bulk-batch";
const REFERENCE_ID = /^[A-Za-z0-9_-]{5,60}$/;

export interface BulkUpload {
  rows: RawBulkRow[];
  fileType: BulkFileType;
  fileName: string | undefined;
  /** The form's text fields, by name. */
  fields: Record<string, string>;
}

export interface ScheduledBatch {
  referenceId: string;
  batchId: string;
  totalRecords: number;
}

export interface BatchView {
  batch: BatchRecord;
  counts: Record<RowState, number>;
  rows: BatchRowRecord[];
  page: number;
  pageSize: number;
}

const duplicate = (referenceId: string) => new ServiceError(409, "DuplicateReferenceId", `A batch with reference_id ${referenceId} already exists`);

/** `global_config` / `globalConfig`: a JSON object, or a JSON string that holds one. */
function parseGlobalConfig(fields: Record<string, string>): Record<string, unknown> {
  const name = fields.global_config !== undefined ? "global_config" : fields.globalConfig !== undefined ? "globalConfig" : undefined;
  if (!name || (fields[name] as string).trim() === "") return {};
  let value: unknown = fields[name];
  for (let depth = 0; depth < 2 && typeof value === "string"; depth++) {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidRequest(`${name} must be a JSON object (or a JSON string holding one)`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidRequest(`${name} must be a JSON object (or a JSON string holding one)`);
  return value as Record<string, unknown>;
}

/** Row values win over the form's top-level fields, which win over global_config. */
export function formDefaults(fields: Record<string, string>): RangeDefaults {
  const global = checkDefaults(parseGlobalConfig(fields), fields.global_config !== undefined ? "global_config." : "globalConfig.");
  const topLevel = checkDefaults(
    Object.fromEntries(["fiDataRangeFrom", "fiDataRangeTo", "configId"].filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]])),
    "",
  );
  return { ...global, ...topLevel };
}

function referenceIdOf(fields: Record<string, string>): string {
  const given = fields.reference_id?.trim() || fields.tracking_id?.trim();
  if (!given) return `bulk-${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}-${randomBytes(4).toString("hex")}`;
  if (!REFERENCE_ID.test(given)) {
    throw invalidRequest(`${fields.reference_id?.trim() ? "reference_id" : "tracking_id"} must be 5 to 60 letters, digits, hyphens or underscores`);
  }
  return given;
}

/** Schedules bulk FI requests from an uploaded file, and reports on batches. */
export class BulkService {
  readonly #repo: BulkRepository;
  #boss: PgBoss | undefined;

  constructor(repo: BulkRepository) {
    this.#repo = repo;
  }

  attach(boss: PgBoss): void {
    this.#boss = boss;
  }

  /**
   * Checks everything, then stores the batch, every row and the batch's job in one transaction:
   * a refused file stores nothing, and an accepted one is sure to be processed.
   */
  async schedule(organisationId: string, upload: BulkUpload, txnid: string): Promise<ScheduledBatch> {
    const referenceId = referenceIdOf(upload.fields);
    const defaults = formDefaults(upload.fields);
    const rows = resolveRows(upload.rows, defaults);
    if (await this.#repo.referenceExists(organisationId, referenceId)) throw duplicate(referenceId);
    const boss = this.#boss;
    if (!boss) throw new Error("bulk scheduling is not started");
    try {
      const batchId = await this.#repo.createBatch(
        { organisationId, referenceId, fileName: upload.fileName ?? null, fileType: upload.fileType, globalConfig: defaults, txnid },
        rows,
        async (session, id) => {
          await boss.send(BULK_QUEUE, { batchId: id }, { db: executorFor(session) } as Parameters<PgBoss["send"]>[2]);
        },
      );
      return { referenceId, batchId, totalRecords: rows.length };
    } catch (error) {
      // Two uploads with one reference_id at once: the database lets exactly one in.
      if (isUniqueViolation(error)) throw duplicate(referenceId);
      throw error;
    }
  }

  async view(organisationId: string, by: { id: string } | { referenceId: string }, page: number, pageSize: number): Promise<BatchView> {
    const batch = await this.#repo.find(organisationId, by);
    if (!batch) throw notFound("id" in by ? `Batch ${by.id} does not exist` : `No batch has reference_id ${by.referenceId}`);
    const [counts, rows] = await Promise.all([this.#repo.counts(batch.id), this.#repo.rowsPage(batch.id, page, pageSize)]);
    return { batch, counts, rows, page, pageSize };
  }
}
