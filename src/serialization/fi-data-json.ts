import type { StoredTransaction } from "../db/repositories/fi-data.ts";
import type { AccountPage } from "../domain/fi-data/reading.ts";
import { API_VERSION } from "../http/error-bodies.ts";

/** Where the answer's time goes in a cached JSON page; filled in per response. */
const TIMESTAMP_SLOT = "\u0000timestamp\u0000";

/** A transaction in the JSON operation's names; optional fields the FIP left out stay out. */
export function transactionJson(t: StoredTransaction) {
  return {
    transactionTimestamp: t.transactionTimestamp,
    txnId: t.txnId,
    type: t.type,
    amount: t.amount,
    ...(t.currentBalance !== null ? { currentBalance: t.currentBalance } : {}),
    mode: t.mode,
    ...(t.narration !== null ? { narration: t.narration } : {}),
    ...(t.reference !== null ? { reference: t.reference } : {}),
    ...(t.valueDate !== null ? { valueDate: t.valueDate } : {}),
  };
}

/**
 * The Get FI Data (JSON) answer as UTF-8, in two parts around its timestamp, which differs on
 * every response while the rest is cached per data version.
 */
export function fiDataJsonParts(page: AccountPage): Buffer[] {
  const text = JSON.stringify({
    ver: API_VERSION,
    status: "success",
    timestamp: TIMESTAMP_SLOT,
    data: { ...page.header, fiData: page.transactions.map(transactionJson) },
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  });
  const slot = JSON.stringify(TIMESTAMP_SLOT).slice(1, -1);
  const at = text.indexOf(slot);
  return [Buffer.from(text.slice(0, at)), Buffer.from(text.slice(at + slot.length))];
}

/** The rendered parts with the response time between two parts, ready to write as they are. */
export function partsWithTime(parts: readonly Buffer[], now: Date = new Date()): Buffer[] {
  if (parts.length === 1) return [parts[0] as Buffer];
  return [parts[0] as Buffer, Buffer.from(now.toISOString()), ...parts.slice(1)];
}
