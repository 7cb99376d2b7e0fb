import type { StoredTransaction } from "../db/repositories/fi-data.ts";
import type { AccountPage } from "../domain/fi-data/reading.ts";
import { API_VERSION } from "../http/error-bodies.ts";

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

/** The Get FI Data (JSON) answer. */
export function fiDataJson(page: AccountPage, now: Date = new Date()) {
  return {
    ver: API_VERSION,
    status: "success" as const,
    timestamp: now.toISOString(),
    data: {
      ...page.header,
      fiData: page.transactions.map(transactionJson),
    },
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
