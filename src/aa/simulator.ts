import { createHash } from "node:crypto";
import { currentAccount, recurringDeposit, savingsAccount, termDeposit } from "../domain/demo/statements.ts";
import { AaError, type AaConnector, type FiRequest, type LinkedAccountRef } from "./connector.ts";

/** Links at this FIP fail, so that the failure path can be exercised end to end. */
export const FAILING_FIP = "FAILING-FIP";

function seedOf(...parts: string[]): number {
  return createHash("sha256").update(parts.join("|")).digest().readUInt32BE(0);
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const [ty, tm] = [Number(to.slice(0, 4)), Number(to.slice(5, 7))];
  return Math.max(1, (ty - fy) * 12 + (tm - fm) + 1);
}

type Statement = { Account: { Transactions: { startDate: string; Transaction: Array<{ valueDate: string }> } } };

/**
 * A deterministic Account Aggregator: for each linked account of a consent it answers a realistic
 * ReBIT document of the account's type (a salaried savings account or a trading business's current
 * account for deposits, fixed and recurring deposits) covering the requested range. The same
 * request always gets the same data.
 */
export class SimulatedAa implements AaConnector {
  readonly name = "simulator";

  async requestFiData(request: FiRequest) {
    if (request.links.length === 0) throw new AaError("the consent has no linked accounts");
    return request.links.map((link) => {
      if (link.fipId === FAILING_FIP) throw new AaError(`FIP ${link.fipId} did not respond (simulated)`);
      return {
        linkReferenceNumber: link.linkReferenceNumber,
        fipId: link.fipId,
        fipName: link.fipName,
        fiType: link.fiType,
        format: "json" as const,
        data: this.#statement(request, link),
      };
    });
  }

  #statement(request: FiRequest, link: LinkedAccountRef): Statement {
    const seed = seedOf(request.consentId, link.linkReferenceNumber);
    const options = { seed, asOf: request.to, months: monthsBetween(request.from, request.to), linkedAccRef: link.linkReferenceNumber, maskedAccNumber: link.maskedAccountNumber };
    const type = link.fiType.replace("-", "_");
    const document = (
      type === "TERM_DEPOSIT" ? termDeposit(options) : type === "RECURRING_DEPOSIT" ? recurringDeposit(options) : seed % 10 < 7 ? savingsAccount(options) : currentAccount(options)
    ) as Statement;
    // The generators cover whole months; the answer covers the requested days.
    const transactions = document.Account.Transactions;
    transactions.Transaction = transactions.Transaction.filter((t) => t.valueDate >= request.from);
    transactions.startDate = request.from;
    return document;
  }
}
