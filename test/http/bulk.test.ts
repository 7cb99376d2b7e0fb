import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILING_FIP, SimulatedAa } from "../../src/aa/simulator.ts";
import { expectContract } from "../helpers/contract.ts";
import { csvFile, jsonFile, multipart, type FormPart } from "../helpers/multipart.ts";
import { createTenant, startTestService, type TenantFixture, type TestService } from "../helpers/service.ts";

const TXNID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FAST = { JOBS_POLL_INTERVAL_MS: "500", BULK_CHUNK_SIZE: "10", BULK_CONCURRENCY: "4" };

export async function consents(service: TestService, organisationId: string, count: number, options: { state?: string; fipId?: string; type?: "PERIODIC" | "ONETIME" } = {}) {
  const ids: Array<{ consentID: string; link: string }> = [];
  for (let i = 0; i < count; i++) {
    const consentID = randomUUID();
    const link = randomUUID();
    await service.ctx.consents.create({ consentID, organisationId, type: options.type ?? "PERIODIC", state: options.state ?? "ACTIVE" });
    await service.ctx.consents.link(consentID, { linkReferenceNumber: link, fipId: options.fipId ?? "SIM-FIP", fipName: "Simulated Bank", fiType: "DEPOSIT", maskedAccountNumber: `XXXX${String(i).padStart(4, "0")}` });
    ids.push({ consentID, link });
  }
  return ids;
}

export function upload(service: TestService, tenant: TenantFixture, parts: FormPart[], headers: Record<string, string> = tenant.headers) {
  const form = multipart(parts);
  return service.app.inject({ method: "POST", url: "/fi/requests/schedule/upload/v3", headers: { ...headers, ...form.headers }, payload: form.payload });
}

export async function batchWhenDone(service: TestService, tenant: TenantFixture, batchId: string, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const response = await service.app.inject({ method: "GET", url: `/fi/requests/schedule/batches/${batchId}?pageSize=1000`, headers: tenant.headers });
    const data = response.json().data;
    if (data.status === "COMPLETED" || data.status === "COMPLETED_WITH_ERRORS") return response.json();
    if (Date.now() - started > timeoutMs) throw new Error(`batch still ${data.status}: ${JSON.stringify(data.counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function expectBulkError(response: { statusCode: number; json: () => any }, status: number, errorCode: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({ ver: "1.0", errorCode, status: "failure", txnid: expect.stringMatching(TXNID), timestamp: expect.any(String) });
  if (status !== 401 && status !== 415) expectContract("fiu", "scheduleBulkFiRequests", status, body);
  return body;
}

describe("Schedule Bulk FI Requests (upload)", () => {
  let service: TestService;
  let tenant: TenantFixture;
  const batches = async () => Number((await service.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM "BulkBatch"`))[0]?.n);

  beforeAll(async () => {
    service = await startTestService({ env: FAST });
    tenant = await createTenant(service);
  });
  afterAll(() => service.close());

  it("accepts a CSV: 202 with the spec's body, and the batch is processed to COMPLETED with readable accounts", async () => {
    const rows = await consents(service, tenant.organisationId, 3);
    const csv = `consentId,fiDataRangeFrom,fiDataRangeTo,configId\n${rows.map((r) => `${r.consentID},2026-09-01,2026-10-31,`).join("\n")}\n`;
    const response = await upload(service, tenant, [{ name: "reference_id", value: "loan-batch-0001" }, csvFile(csv)]);
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expectContract("fiu", "scheduleBulkFiRequests", 202, body);
    expect(body).toEqual({
      ver: "1.0",
      timestamp: expect.any(String),
      txnid: expect.stringMatching(TXNID),
      status: "success",
      message: "File uploaded successfully; 3 FI requests scheduled",
      data: { reference_id: "loan-batch-0001", batch_id: expect.stringMatching(TXNID), storage_type: "database", status: "FILE_UPLOADED", total_records: 3 },
    });
    const done = await batchWhenDone(service, tenant, body.data.batch_id);
    expectContract("fiu", "getBulkBatch", 200, done);
    expect(done.data).toMatchObject({ status: "COMPLETED", total_records: 3, counts: { SCHEDULED: 0, REQUESTED: 0, DATA_READY: 3, FAILED: 0 } });
    for (const [index, row] of done.data.rows.entries()) {
      expect(row).toMatchObject({ row: index + 1, consentId: rows[index]!.consentID, state: "DATA_READY", journeyID: `bulk-${body.data.batch_id}-${index + 1}`, failureReason: null });
      const data = await service.app.inject({ method: "POST", url: "/getfidata", headers: tenant.headers, payload: { consentID: rows[index]!.consentID, linkReferenceNumber: rows[index]!.link } });
      expect(data.statusCode).toBe(200);
      const fiData = data.json().data.fiData as Array<{ valueDate: string }>;
      expect(fiData.length).toBeGreaterThan(0);
      expect(fiData.every((t) => t.valueDate >= "2026-09-01" && t.valueDate <= "2026-10-31")).toBe(true);
    }
    // Every stored account announced itself: one DATA_READY event per row.
    const events = await service.ctx.db.query(`SELECT 1 FROM "WebhookDelivery" WHERE "organisationId" = $1 AND payload->'data'->>'journeyID' LIKE $2`, [tenant.organisationId, `bulk-${body.data.batch_id}-%`]);
    expect(events).toHaveLength(3);
  });

  it("fails rows one by one with their reason: unknown, another organisation's, not ACTIVE, and an AA error", async () => {
    const other = await createTenant(service);
    const [active] = await consents(service, tenant.organisationId, 1);
    const [paused] = await consents(service, tenant.organisationId, 1, { state: "PAUSED" });
    const [theirs] = await consents(service, other.organisationId, 1);
    const [failing] = await consents(service, tenant.organisationId, 1, { fipId: FAILING_FIP });
    const unknown = randomUUID();
    const file = [active, paused, theirs, failing].map((c) => ({ consentId: c!.consentID })).concat([{ consentId: unknown }]);
    const response = await upload(service, tenant, [jsonFile(file), { name: "fiDataRangeFrom", value: "2026-10-01" }, { name: "fiDataRangeTo", value: "2026-10-31" }]);
    expect(response.statusCode).toBe(202);
    const done = await batchWhenDone(service, tenant, response.json().data.batch_id);
    expect(done.data.status).toBe("COMPLETED_WITH_ERRORS");
    expect(done.data.counts).toEqual({ SCHEDULED: 0, REQUESTED: 0, DATA_READY: 1, FAILED: 4 });
    expect(done.data.rows.map((r: { state: string; failureReason: string | null }) => [r.state, r.failureReason])).toEqual([
      ["DATA_READY", null],
      ["FAILED", "consent not ACTIVE (PAUSED)"],
      ["FAILED", "unknown consent: no consent with this id for the organisation"],
      ["FAILED", `AA error: FIP ${FAILING_FIP} did not respond (simulated)`],
      ["FAILED", "unknown consent: no consent with this id for the organisation"],
    ]);
  });

  it("reads JSON as an array or a consents_list, with consent_id or consentId, and keeps each row's configId for analytics", async () => {
    const rows = await consents(service, tenant.organisationId, 2);
    const list = { consents_list: [{ consent_id: rows[0]!.consentID, configId: "strict" }, { consentId: rows[1]!.consentID }] };
    const response = await upload(service, tenant, [jsonFile(list), { name: "global_config", value: JSON.stringify({ fiDataRangeFrom: "2026-10-01", fiDataRangeTo: "2026-10-31", configId: "lenient" }) }]);
    expect(response.statusCode).toBe(202);
    const done = await batchWhenDone(service, tenant, response.json().data.batch_id);
    expect(done.data.rows.map((r: { configId: string }) => r.configId)).toEqual(["strict", "lenient"]);
    const journeys = await service.ctx.db.query<{ configId: string }>(`SELECT "configId" FROM "Journey" WHERE id = ANY($1) ORDER BY id`, [done.data.rows.map((r: { journeyID: string }) => r.journeyID)]);
    expect(journeys.map((j) => j.configId).sort()).toEqual(["lenient", "strict"]);
  });

  it("applies defaults: a row's value, else the top-level field, else global_config (also given as a JSON string, or as globalConfig)", async () => {
    const id = randomUUID();
    const csv = `consentId,fiDataRangeFrom,fiDataRangeTo,configId,customerName\n${id},2026-01-05,,,"Verma, Asha"\n${id},,,row-config,"Rao, Arjun"\n`;
    const doubleEncoded = JSON.stringify(JSON.stringify({ fiDataRangeFrom: "2025-11-01", fiDataRangeTo: "2026-10-31", configId: "global-config" }));
    for (const [name, value] of [["global_config", doubleEncoded], ["globalConfig", JSON.parse(doubleEncoded) as string]]) {
      const response = await upload(service, tenant, [csvFile(csv), { name: name!, value: value! }, { name: "fiDataRangeTo", value: "2026-06-30" }]);
      expect(response.statusCode, response.body).toBe(202);
      const batch = await service.app.inject({ method: "GET", url: `/fi/requests/schedule/batches/${response.json().data.batch_id}`, headers: tenant.headers });
      expect(batch.json().data.rows.map((r: Record<string, unknown>) => [r.fiDataRangeFrom, r.fiDataRangeTo, r.configId])).toEqual([
        ["2026-01-05", "2026-06-30", "global-config"],
        ["2025-11-01", "2026-06-30", "row-config"],
      ]);
    }
  });

  it("generates a reference_id when none is given, takes tracking_id as its alias, and prefers reference_id", async () => {
    const csv = `consentId\n${randomUUID()}\n`;
    const generated = await upload(service, tenant, [csvFile(csv)]);
    expect(generated.json().data.reference_id).toMatch(/^bulk-\d{14}-[0-9a-f]{8}$/);
    const alias = await upload(service, tenant, [csvFile(csv), { name: "tracking_id", value: "track_00042" }]);
    expect(alias.json().data.reference_id).toBe("track_00042");
    const both = await upload(service, tenant, [{ name: "tracking_id", value: "track_00043" }, { name: "reference_id", value: "ref-00043" }, csvFile(csv)]);
    expect(both.json().data.reference_id).toBe("ref-00043");
  });

  it.each([
    ["too short", "abcd"],
    ["too long", "x".repeat(61)],
    ["with other characters", "loan batch/1"],
  ])("refuses a reference_id %s with InvalidRequest", async (_case, value) => {
    const body = expectBulkError(await upload(service, tenant, [{ name: "reference_id", value }, csvFile(`consentId\n${randomUUID()}\n`)]), 400, "InvalidRequest");
    expect(body.errorMsg).toBe("reference_id must be 5 to 60 letters, digits, hyphens or underscores");
  });

  it("refuses a reference_id that exists (409), and lets exactly one of two concurrent uploads with the same id in", async () => {
    const csv = csvFile(`consentId\n${randomUUID()}\n`);
    expect((await upload(service, tenant, [{ name: "reference_id", value: "dup-00001" }, csv])).statusCode).toBe(202);
    expectBulkError(await upload(service, tenant, [{ name: "reference_id", value: "dup-00001" }, csv]), 409, "DuplicateReferenceId");
    const racing = await Promise.all(Array.from({ length: 4 }, () => upload(service, tenant, [{ name: "reference_id", value: "race-00001" }, csv])));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([202, 409, 409, 409]);
    const stored = await service.ctx.db.query(`SELECT 1 FROM "BulkBatch" WHERE "referenceId" = 'race-00001'`);
    expect(stored).toHaveLength(1);
  });

  it("keeps reference_ids per organisation", async () => {
    const other = await createTenant(service);
    const csv = csvFile(`consentId\n${randomUUID()}\n`);
    expect((await upload(service, tenant, [{ name: "reference_id", value: "shared-ref-1" }, csv])).statusCode).toBe(202);
    expect((await upload(service, other, [{ name: "reference_id", value: "shared-ref-1" }, csv])).statusCode).toBe(202);
  });

  it.each([
    ["a PDF", { name: "file", filename: "statement.pdf", contentType: "application/pdf", content: "%PDF-1.4" }, "application/pdf"],
    ["an Excel file sent as octet-stream", { name: "file", filename: "consents.xlsx", contentType: "application/octet-stream", content: "PK" }, "application/octet-stream"],
    ["XML", { name: "file", filename: "consents.xml", contentType: "application/xml", content: "<a/>" }, "application/xml"],
  ])("refuses %s with UnsupportedFileType", async (_case, file, providedType) => {
    const before = await batches();
    const body = expectBulkError(await upload(service, tenant, [file as FormPart]), 400, "UnsupportedFileType");
    expect(body.errorDetails).toEqual({ providedType, acceptedTypes: ["application/json", "text/csv"] });
    expect(await batches()).toBe(before);
  });

  it("recognises CSV and JSON sent as octet-stream by their name", async () => {
    const csv = await upload(service, tenant, [{ name: "file", filename: "c.csv", contentType: "application/octet-stream", content: `consentId\n${randomUUID()}\n` }]);
    expect(csv.statusCode).toBe(202);
    const json = await upload(service, tenant, [{ name: "file", filename: "c.json", contentType: "text/plain", content: JSON.stringify([{ consentId: randomUUID() }]) }]);
    expect(json.statusCode).toBe(202);
  });

  it("cuts a file over 10 MB at the limit with FileTooLarge (413), and stores nothing", async () => {
    const before = await batches();
    const line = `${randomUUID()},2026-01-01,2026-06-30,default\n`;
    const content = `consentId,fiDataRangeFrom,fiDataRangeTo,configId\n${line.repeat(Math.ceil(10_485_761 / line.length))}`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(10_485_760);
    const body = expectBulkError(await upload(service, tenant, [{ name: "reference_id", value: "too-big-01" }, csvFile(content)]), 413, "FileTooLarge");
    expect(body.errorDetails).toEqual({ providedSize: 10_485_761, maxSize: 10_485_760, maxSizeMB: 10 });
    expect(await batches()).toBe(before);
  });

  it.each([
    ["a bad UUID, a bad date and a range that ends before it starts", `consentId,fiDataRangeFrom,fiDataRangeTo\n${randomUUID()},2026-01-01,2026-02-01\nnot-a-uuid,,\n${randomUUID()},01/02/2026,\n${randomUUID()},2026-03-01,2026-02-01\n`, [
      { row: 2, field: "consentId", reason: "is not a UUID" },
      { row: 3, field: "fiDataRangeFrom", reason: "is not an ISO 8601 date or date-time" },
      { row: 4, field: "fiDataRangeFrom", reason: "is after fiDataRangeTo" },
    ]],
    ["a missing consentId", `consentId,configId\n,strict\n`, [{ row: 1, field: "consentId", reason: "is required" }]],
    ["no consentId column", `consent,configId\n${randomUUID()},x\n`, [{ row: 0, field: "consentId", reason: "the header row has no consentId column" }]],
  ])("refuses %s with InvalidFileContent naming the rows", async (_case, csv, errors) => {
    const before = await batches();
    const body = expectBulkError(await upload(service, tenant, [csvFile(csv)]), 400, "InvalidFileContent");
    expect(body.errorDetails.errors).toEqual(errors);
    expect(await batches()).toBe(before);
  });

  it("reports at most 20 bad rows, with the total", async () => {
    const csv = `consentId\n${Array.from({ length: 45 }, (_, i) => `bad-${i}`).join("\n")}\n`;
    const body = expectBulkError(await upload(service, tenant, [csvFile(csv)]), 400, "InvalidFileContent");
    expect(body.errorMsg).toBe("45 rows are invalid");
    expect(body.errorDetails.errors).toHaveLength(20);
    expect(body.errorDetails.totalErrors).toBe(45);
  });

  it.each([
    ["a CSV with a byte-order mark", csvFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`consentId\n${randomUUID()}\n`)])), /byte-order mark/],
    ["a file that is not UTF-8", csvFile(Buffer.from([0x63, 0x6f, 0x6e, 0x73, 0x65, 0x6e, 0x74, 0x49, 0x64, 0x0a, 0xff, 0xfe, 0x0a])), /not valid UTF-8/],
    ["malformed JSON", jsonFile("[{\"consentId\": "), /not valid JSON/],
    ["JSON that is neither an array nor a consents_list", jsonFile({ rows: [] }), /must be an array of rows or an object with a consents_list array/],
    ["a CSV with only its header", csvFile("consentId,configId\n"), /no data rows/],
    ["an empty JSON array", jsonFile([]), /no data rows/],
  ])("refuses %s with InvalidFileContent", async (_case, file, message) => {
    const body = expectBulkError(await upload(service, tenant, [file]), 400, "InvalidFileContent");
    expect(body.errorMsg).toMatch(message);
  });

  it.each([
    ["global_config that is not JSON", [{ name: "global_config", value: "{configId: x}" }], "global_config must be a JSON object (or a JSON string holding one)"],
    ["global_config with an unknown key", [{ name: "global_config", value: '{"fromDate":"2026-01-01"}' }], "global_config.fromDate is not a known setting (fiDataRangeFrom, fiDataRangeTo, configId)"],
    ["a top-level date that is not a date", [{ name: "fiDataRangeTo", value: "yesterday" }], "fiDataRangeTo is not an ISO 8601 date or date-time"],
    ["an unknown form field", [{ name: "priority", value: "high" }], "priority is not a field of this form"],
    ["no file", [], "file is required"],
  ])("refuses %s with InvalidRequest", async (_case, fields, message) => {
    const parts: FormPart[] = [...(fields as FormPart[])];
    if (message !== "file is required") parts.push(csvFile(`consentId\n${randomUUID()}\n`));
    const body = expectBulkError(await upload(service, tenant, parts), 400, "InvalidRequest");
    expect(body.errorMsg).toBe(message);
  });

  it("answers an unauthenticated upload with 401 and a txnid, and a non-multipart body with 415", async () => {
    expectBulkError(await upload(service, tenant, [csvFile(`consentId\n${randomUUID()}\n`)], { ...tenant.headers, client_secret: "wrong-secret-wrong" }), 401, "Unauthorized");
    const json = await service.app.inject({ method: "POST", url: "/fi/requests/schedule/upload/v3", headers: { ...tenant.headers, "content-type": "application/json" }, payload: "{}" });
    expectBulkError(json, 415, "UnsupportedMediaType");
  });

  describe("tracking", () => {
    it("finds a batch by batch_id and by reference_id, pages its rows, and hides other organisations' batches", async () => {
      const csv = `consentId\n${Array.from({ length: 7 }, () => randomUUID()).join("\n")}\n`;
      const created = (await upload(service, tenant, [{ name: "reference_id", value: "track-me-01" }, csvFile(csv)])).json().data;
      const byId = await service.app.inject({ method: "GET", url: `/fi/requests/schedule/batches/${created.batch_id}?page=2&pageSize=3`, headers: tenant.headers });
      expect(byId.statusCode).toBe(200);
      expect(byId.json().data).toMatchObject({ batch_id: created.batch_id, reference_id: "track-me-01", total_records: 7, page: 2, pageSize: 3 });
      expect(byId.json().data.rows.map((r: { row: number }) => r.row)).toEqual([4, 5, 6]);
      const byReference = await service.app.inject({ method: "GET", url: "/fi/requests/schedule/batches/by-reference/track-me-01", headers: tenant.headers });
      expect(byReference.json().data.batch_id).toBe(created.batch_id);
      expectContract("fiu", "getBulkBatchByReference", 200, byReference.json());
      const other = await createTenant(service);
      expect((await service.app.inject({ method: "GET", url: `/fi/requests/schedule/batches/${created.batch_id}`, headers: other.headers })).statusCode).toBe(404);
      expect((await service.app.inject({ method: "GET", url: "/fi/requests/schedule/batches/by-reference/track-me-01", headers: other.headers })).statusCode).toBe(404);
      expect((await service.app.inject({ method: "GET", url: "/fi/requests/schedule/batches/not-a-uuid", headers: tenant.headers })).statusCode).toBe(400);
    });
  });
});

describe("a bulk worker stopped mid-batch", () => {
  it("is finished by the next worker with no row lost or processed twice", async () => {
    const { createTestDatabase } = await import("../helpers/database.ts");
    const database = await createTestDatabase({ persistent: true });
    const env = { ...FAST, BULK_CHUNK_SIZE: "4", BULK_CONCURRENCY: "2" };
    const first = await startTestService({ env, database });
    const tenant = await createTenant(first);
    const rows = await consents(first, tenant.organisationId, 30);
    const csv = `consentId,fiDataRangeFrom,fiDataRangeTo\n${rows.map((r) => `${r.consentID},2026-10-01,2026-10-31`).join("\n")}\n`;
    // A slow AA; the worker is halted while its sixth request is in flight, leaving rows
    // REQUESTED (journey started, no data) as a killed process would.
    const simulator = new SimulatedAa();
    let calls = 0;
    first.ctx.bulkProcessor.useConnector({
      name: "slow-simulator",
      async requestFiData(request) {
        if (++calls === 6) first.ctx.bulkProcessor.halt();
        await new Promise((resolve) => setTimeout(resolve, 20));
        return simulator.requestFiData(request);
      },
    });
    const batchId = (await upload(first, tenant, [csvFile(csv)])).json().data.batch_id;
    while (calls < 6) await new Promise((resolve) => setTimeout(resolve, 20));
    await first.close();

    const second = await startTestService({ env, database, reopen: true });
    try {
      const midway = (await second.app.inject({ method: "GET", url: `/fi/requests/schedule/batches/${batchId}`, headers: tenant.headers })).json().data;
      expect(midway.status).toBe("PROCESSING");
      expect(midway.counts.DATA_READY).toBeGreaterThan(0);
      expect(midway.counts.DATA_READY).toBeLessThan(30);
      expect(midway.counts.REQUESTED).toBeGreaterThan(0);
      const done = await batchWhenDone(second, tenant, batchId, 60_000);
      expect(done.data).toMatchObject({ status: "COMPLETED", counts: { SCHEDULED: 0, REQUESTED: 0, DATA_READY: 30, FAILED: 0 } });
      const perRow = await second.ctx.db.query<{ journeys: string; snapshots: string }>(
        `SELECT count(DISTINCT j.id) AS journeys, count(s.id) AS snapshots FROM "BulkRow" r
         JOIN "Journey" j ON j.id = r."journeyId" LEFT JOIN "FiDataSnapshot" s ON s."journeyId" = j.id
         WHERE r."batchId" = $1 GROUP BY r.id`,
        [batchId],
      );
      expect(perRow).toHaveLength(30);
      for (const row of perRow) expect([Number(row.journeys), Number(row.snapshots)]).toEqual([1, 1]);
      const linkSnapshots = await second.ctx.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM "FiDataSnapshot" s JOIN "LinkedAccount" l ON l.id = s."linkedAccountId" WHERE l."linkReferenceNumber" = ANY($1::uuid[])`,
        [rows.map((r) => r.link)],
      );
      expect(Number(linkSnapshots[0]!.n)).toBe(30);
    } finally {
      await second.close();
      await database.drop();
    }
  }, 120_000);
});
