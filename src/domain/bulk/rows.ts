import type { RawBulkRow } from "../../serialization/bulk-file.ts";
import { FieldError, isoDateTime } from "../../serialization/values.ts";
import { invalidRequest, ServiceError } from "../errors.ts";

export interface RangeDefaults {
  fiDataRangeFrom?: string | undefined;
  fiDataRangeTo?: string | undefined;
  configId?: string | undefined;
}

/** A row as it will be requested: the row's own values, else the defaults. */
export interface BulkRowValues {
  row: number;
  consentId: string;
  fiDataRangeFrom: string | null;
  fiDataRangeTo: string | null;
  configId: string | null;
}

export interface RowProblem {
  row: number;
  field: string;
  reason: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONFIG_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const MAX_REPORTED_PROBLEMS = 20;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** The value as an ISO 8601 date or date-time (as written), or the reason it is not one. */
function dateValue(value: unknown): { text: string; time: number } | string {
  if (typeof value !== "string") return "must be an ISO 8601 date or date-time string";
  const text = value.trim();
  try {
    return { text, time: Date.parse(isoDateTime(text, "value")) };
  } catch (error) {
    return error instanceof FieldError ? "is not an ISO 8601 date or date-time" : String(error);
  }
}

function configValue(value: unknown): string | { problem: string } {
  if (typeof value !== "string" || !CONFIG_ID.test(value.trim())) return { problem: "must be 1 to 64 letters, digits, dots, hyphens or underscores" };
  return value.trim();
}

/** Checks the form's defaults; a bad one is the request's fault (InvalidRequest), not the file's. */
export function checkDefaults(defaults: Record<string, unknown>, source: string): RangeDefaults {
  const out: RangeDefaults = {};
  for (const [key, value] of Object.entries(defaults)) {
    if (blank(value)) continue;
    if (key === "fiDataRangeFrom" || key === "fiDataRangeTo") {
      const date = dateValue(value);
      if (typeof date === "string") throw invalidRequest(`${source}${key} ${date}`);
      out[key] = date.text;
    } else if (key === "configId") {
      const config = configValue(value);
      if (typeof config !== "string") throw invalidRequest(`${source}configId ${config.problem}`);
      out.configId = config;
    } else {
      throw invalidRequest(`${source}${key} is not a known setting (fiDataRangeFrom, fiDataRangeTo, configId)`);
    }
  }
  return out;
}

/**
 * Applies the defaults to every row and checks it. The file is refused when any row is bad,
 * naming the first MAX_REPORTED_PROBLEMS problems (row, field, reason).
 */
export function resolveRows(raw: readonly RawBulkRow[], defaults: RangeDefaults): BulkRowValues[] {
  const rows: BulkRowValues[] = [];
  const problems: RowProblem[] = [];
  let badRows = 0;
  const report = (row: number, field: string, reason: string) => {
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ row, field, reason });
  };
  for (const entry of raw) {
    const before = problems.length;
    let bad = false;
    const flag = (field: string, reason: string) => {
      bad = true;
      report(entry.row, field, reason);
    };
    if (entry.malformed) {
      flag("row", entry.malformed);
    } else {
      let consentId = "";
      if (blank(entry.consentId)) flag("consentId", "is required");
      else if (typeof entry.consentId !== "string" || !UUID.test(entry.consentId.trim())) flag("consentId", "is not a UUID");
      else consentId = entry.consentId.trim().toLowerCase();

      const range: Record<"fiDataRangeFrom" | "fiDataRangeTo", { text: string; time: number } | null> = { fiDataRangeFrom: null, fiDataRangeTo: null };
      for (const field of ["fiDataRangeFrom", "fiDataRangeTo"] as const) {
        const value = blank(entry[field]) ? defaults[field] : entry[field];
        if (value === undefined) continue;
        const date = dateValue(value);
        if (typeof date === "string") flag(field, date);
        else range[field] = date;
      }
      if (range.fiDataRangeFrom && range.fiDataRangeTo && range.fiDataRangeFrom.time > range.fiDataRangeTo.time) {
        flag("fiDataRangeFrom", "is after fiDataRangeTo");
      }
      let configId: string | null = defaults.configId ?? null;
      if (!blank(entry.configId)) {
        const config = configValue(entry.configId);
        if (typeof config === "string") configId = config;
        else flag("configId", config.problem);
      }
      if (!bad) {
        rows.push({ row: entry.row, consentId, fiDataRangeFrom: range.fiDataRangeFrom?.text ?? null, fiDataRangeTo: range.fiDataRangeTo?.text ?? null, configId });
      }
    }
    if (bad || problems.length > before) badRows++;
  }
  if (badRows > 0) {
    throw new ServiceError(400, "InvalidFileContent", `${badRows} row${badRows === 1 ? " is" : "s are"} invalid`, { errors: problems, totalErrors: badRows });
  }
  return rows;
}
