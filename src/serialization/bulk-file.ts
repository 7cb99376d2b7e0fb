import Papa from "papaparse";
import { ServiceError } from "../domain/errors.ts";

/** One data row as written in the file: the values it gives, before defaults. */
export interface RawBulkRow {
  /** Data row number, from 1 (a CSV header is not counted). */
  row: number;
  consentId: unknown;
  fiDataRangeFrom: unknown;
  fiDataRangeTo: unknown;
  configId: unknown;
  /** Set when the row is not a row at all (a JSON item that is not an object). */
  malformed?: string;
}

export type BulkFileType = "csv" | "json";

export const ACCEPTED_TYPES = ["application/json", "text/csv"];
const CSV_TYPES = new Set(["text/csv", "application/csv", "text/comma-separated-values", "application/vnd.ms-excel"]);
const JSON_TYPES = new Set(["application/json", "text/json"]);
const GENERIC_TYPES = new Set(["", "application/octet-stream", "text/plain", "binary/octet-stream"]);

const invalidContent = (message: string, details?: Record<string, unknown>) => new ServiceError(400, "InvalidFileContent", message, details);

/** CSV or JSON from the part's media type, or from the file name when the type says nothing. */
export function detectFileType(mimetype: string | undefined, filename: string | undefined): BulkFileType {
  const type = (mimetype ?? "").split(";")[0]!.trim().toLowerCase();
  if (CSV_TYPES.has(type)) return "csv";
  if (JSON_TYPES.has(type)) return "json";
  const extension = (filename ?? "").toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (GENERIC_TYPES.has(type) && (extension === "csv" || extension === "json")) return extension;
  const provided = type || (extension ? `.${extension}` : "unknown");
  throw new ServiceError(400, "UnsupportedFileType", `File type ${provided} is not supported; upload CSV or JSON`, {
    providedType: provided,
    acceptedTypes: ACCEPTED_TYPES,
  });
}

const COLUMNS: Record<string, keyof Omit<RawBulkRow, "row">> = {
  consentid: "consentId",
  consent_id: "consentId",
  fidatarangefrom: "fiDataRangeFrom",
  fidatarangeto: "fiDataRangeTo",
  configid: "configId",
};

/**
 * Reads an uploaded file as it streams in: bytes are decoded as strict UTF-8 chunk by chunk
 * and, for CSV, parsed row by row, so the file itself is never held whole. JSON has to be held
 * as text until it is complete.
 */
export class BulkFileReader {
  readonly #type: BulkFileType;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  readonly #rows: RawBulkRow[] = [];
  readonly #textParts: string[] = [];
  readonly #csv: ReturnType<typeof Papa.parse> | undefined;
  #columns: Array<keyof Omit<RawBulkRow, "row">> | undefined;
  #started = false;
  #bytes = 0;
  #failure: ServiceError | undefined;

  constructor(type: BulkFileType) {
    this.#type = type;
    if (type === "csv") {
      // Papa's streaming parser: text in, one array of cells per record out.
      this.#csv = Papa.parse(Papa.NODE_STREAM_INPUT, { header: false, skipEmptyLines: "greedy" }) as unknown as ReturnType<typeof Papa.parse>;
      (this.#csv as unknown as NodeJS.ReadWriteStream).on("data", (cells: string[]) => this.#csvRecord(cells));
    }
  }

  get bytes(): number {
    return this.#bytes;
  }

  #csvRecord(cells: string[]): void {
    if (this.#failure) return;
    if (!this.#columns) {
      const names = cells.map((cell) => cell.trim().toLowerCase());
      if (!names.some((name) => COLUMNS[name] === "consentId")) {
        this.#failure = invalidContent("The CSV header row must name a consentId column", { errors: [{ row: 0, field: "consentId", reason: "the header row has no consentId column" }] });
        return;
      }
      this.#columns = names.map((name) => COLUMNS[name] ?? (undefined as never));
      return;
    }
    const row: RawBulkRow = { row: this.#rows.length + 1, consentId: undefined, fiDataRangeFrom: undefined, fiDataRangeTo: undefined, configId: undefined };
    this.#columns.forEach((column, index) => {
      if (column) row[column] = cells[index];
    });
    this.#rows.push(row);
  }

  write(chunk: Buffer): void {
    if (this.#failure) return;
    if (!this.#started) {
      this.#started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        if (this.#type === "csv") {
          this.#failure = invalidContent("The CSV file starts with a byte-order mark; save it as UTF-8 without BOM");
          return;
        }
        chunk = chunk.subarray(3);
      }
    }
    this.#bytes += chunk.length;
    this.#decode(chunk, true);
  }

  #decode(chunk: Buffer | undefined, stream: boolean): void {
    let text: string;
    try {
      text = chunk ? this.#decoder.decode(chunk, { stream }) : this.#decoder.decode();
    } catch {
      this.#failure = invalidContent("The file is not valid UTF-8");
      return;
    }
    if (!text) return;
    if (this.#csv) (this.#csv as unknown as NodeJS.WritableStream).write(text);
    else this.#textParts.push(text);
  }

  /** All rows of the complete file, or the reason it cannot be read. */
  async finish(): Promise<RawBulkRow[]> {
    this.#decode(undefined, false);
    if (this.#csv) {
      const stream = this.#csv as unknown as NodeJS.ReadWriteStream;
      await new Promise<void>((resolve, reject) => {
        stream.once("end", resolve);
        stream.once("error", reject);
        stream.end();
        (stream as unknown as { resume: () => void }).resume();
      });
    } else if (!this.#failure) {
      this.#readJson(this.#textParts.join(""));
      this.#textParts.length = 0;
    }
    if (this.#failure) throw this.#failure;
    if (this.#rows.length === 0) throw invalidContent("The file has no data rows");
    return this.#rows;
  }

  #readJson(text: string): void {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      this.#failure = invalidContent(`The file is not valid JSON: ${(error as Error).message}`);
      return;
    }
    const list = Array.isArray(document) ? document : (document as { consents_list?: unknown } | null)?.consents_list;
    if (!Array.isArray(list)) {
      this.#failure = invalidContent("The JSON file must be an array of rows or an object with a consents_list array");
      return;
    }
    list.forEach((item, index) => {
      const isObject = typeof item === "object" && item !== null && !Array.isArray(item);
      const entry = isObject ? (item as Record<string, unknown>) : {};
      this.#rows.push({
        row: index + 1,
        consentId: entry.consent_id ?? entry.consentId,
        fiDataRangeFrom: entry.fiDataRangeFrom,
        fiDataRangeTo: entry.fiDataRangeTo,
        configId: entry.configId,
        ...(isObject ? {} : { malformed: "a row must be an object with consent_id or consentId" }),
      });
    });
  }
}
