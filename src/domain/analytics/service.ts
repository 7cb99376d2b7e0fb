import { randomUUID } from "node:crypto";
import type { PgBoss } from "pg-boss";
import { findCategory } from "../../analytics/categories.ts";
import { analyse, DEFAULT_SETTINGS, type BankingAnalysis } from "../../analytics/engine.ts";
import type { AnalysisAccount, AnalyticsSettings } from "../../analytics/types.ts";
import type { SqlSession } from "../../db/database.ts";
import type { AnalyticsRepository, StoredTransactionRow } from "../../db/repositories/analytics.ts";
import type { ConsentRepository } from "../../db/repositories/consents.ts";
import { executorFor } from "../../jobs/boss.ts";
import { invalidRequest, notFound } from "../errors.ts";
import type { IngestResult } from "../fi-data/ingestion.ts";

export const ANALYTICS_QUEUE = "journey-analytics";

export interface AnalyticsRun {
  journeyId: string;
  consentId: string;
  configId: string;
  runId: string;
  bankingAnalysis: BankingAnalysis;
  rawData: { accounts: unknown[] };
}

/** Settings as stored: any subset; the rest are the defaults. */
export function resolveSettings(stored: unknown): AnalyticsSettings {
  return { ...DEFAULT_SETTINGS, ...((stored as Partial<AnalyticsSettings> | null) ?? {}) };
}

function accountsFrom(rows: Awaited<ReturnType<AnalyticsRepository["journeyAccounts"]>>, transactions: StoredTransactionRow[]) {
  const bySnapshot = new Map<string, StoredTransactionRow[]>();
  for (const txn of transactions) {
    const list = bySnapshot.get(txn.snapshotId);
    if (list) list.push(txn);
    else bySnapshot.set(txn.snapshotId, [txn]);
  }
  const raw = rows.map((row) => ({
    linkReferenceNumber: row.linkReferenceNumber,
    fipId: row.fipId,
    fipName: row.fipName,
    fiType: row.fiType,
    maskedAccountNumber: row.maskedAccountNumber,
    balance: row.balance,
    currency: row.currency,
    profile: row.profile,
    summary: row.summary,
    transactions: (bySnapshot.get(row.snapshotId) ?? []).map(({ snapshotId: _snapshot, ...txn }) => txn),
  }));
  const analysed: AnalysisAccount[] = raw.map((account) => ({
    linkReferenceNumber: account.linkReferenceNumber,
    fiType: account.fiType,
    maskedAccountNumber: account.maskedAccountNumber,
    balance: Number(account.balance),
    currency: account.currency,
    profile: account.profile as AnalysisAccount["profile"],
    summary: account.summary as AnalysisAccount["summary"],
    transactions: account.transactions.map((txn) => ({
      ...txn,
      amount: Number(txn.amount),
      currentBalance: txn.currentBalance === null ? null : Number(txn.currentBalance),
    })),
  }));
  return { raw, analysed };
}

/**
 * Analytics of consent journeys: computed by a job when a journey completes (with the journey's
 * configuration), stored, and served; computed on demand when the job has not run yet.
 */
export class AnalyticsService {
  readonly #repo: AnalyticsRepository;
  readonly #consents: ConsentRepository;
  #boss: PgBoss | undefined;

  constructor(repo: AnalyticsRepository, consents: ConsentRepository) {
    this.#repo = repo;
    this.#consents = consents;
  }

  async start(boss: PgBoss, work: boolean, pollingIntervalSeconds: number): Promise<void> {
    this.#boss = boss;
    await boss.createQueue(ANALYTICS_QUEUE, { retryLimit: 5, retryDelay: 10, retryBackoff: true });
    if (!work) return;
    await boss.work<{ journeyId: string }>(ANALYTICS_QUEUE, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
      if (job && !(await this.#repo.result(job.data.journeyId))) await this.compute(job.data.journeyId);
    });
  }

  /** Enqueues the journey's analytics in the transaction that completes it. */
  readonly scheduleForJourney = async (session: SqlSession, result: IngestResult): Promise<void> => {
    if (!this.#boss) throw new Error("analytics are not started");
    await this.#boss.send(ANALYTICS_QUEUE, { journeyId: result.journeyID }, { db: executorFor(session) } as Parameters<PgBoss["send"]>[2]);
  };

  async settingsFor(organisationId: string, configId: string): Promise<{ configId: string; settings: AnalyticsSettings }> {
    const stored = await this.#repo.config(organisationId, configId);
    if (stored) return { configId, settings: resolveSettings(stored.settings) };
    const fallback = configId === "default" ? null : await this.#repo.config(organisationId, "default");
    return { configId: "default", settings: resolveSettings(fallback?.settings) };
  }

  /** Analyses a completed journey's accounts and stores the result. */
  async compute(journeyId: string): Promise<AnalyticsRun> {
    const journey = await this.#repo.journey(journeyId);
    if (!journey) throw notFound(`Journey ${journeyId} does not exist`);
    const rows = await this.#repo.journeyAccounts(journeyId);
    if (rows.length === 0) throw invalidRequest(`journeyID ${journeyId}: its data is no longer kept (the accounts were refreshed since)`);
    const { raw, analysed } = accountsFrom(rows, await this.#repo.transactions(rows.map((row) => row.snapshotId)));
    const { configId, settings } = await this.settingsFor(journey.organisationId, journey.configId);
    const run: AnalyticsRun = {
      journeyId,
      consentId: journey.consentId,
      configId,
      runId: randomUUID(),
      bankingAnalysis: analyse(analysed, settings),
      rawData: { accounts: raw },
    };
    await this.#repo.saveResult(journeyId, configId, run.runId, { bankingAnalysis: run.bankingAnalysis, rawData: run.rawData });
    return run;
  }

  /** The analytics of a journey of the caller's organisation, checked as the operation describes. */
  async forJourney(organisationId: string, consentID: string, journeyID: string): Promise<AnalyticsRun> {
    const consent = await this.#consents.findForOrganisation(consentID, organisationId);
    if (!consent) throw invalidRequest(`consentID ${consentID} is not a consent of this organisation`);
    const journey = await this.#repo.journey(journeyID);
    if (!journey || journey.organisationId !== organisationId) throw invalidRequest(`journeyID ${journeyID} does not exist`);
    if (journey.consentId !== consent.id) throw invalidRequest(`journeyID ${journeyID} is not a journey of consentID ${consentID}`);
    if (journey.status !== "COMPLETED") throw invalidRequest(`journeyID ${journeyID} has not completed; analytics are available once its data has arrived`);
    const stored = await this.#repo.result(journeyID);
    if (stored) {
      const result = stored.result as { bankingAnalysis: BankingAnalysis; rawData: { accounts: unknown[] } };
      return { journeyId: journeyID, consentId: consent.id, configId: stored.configId, runId: stored.runId, ...result };
    }
    return this.compute(journeyID);
  }

  async getConfig(organisationId: string, configId: string) {
    const stored = await this.#repo.config(organisationId, configId);
    if (!stored && configId !== "default") throw notFound(`Analytics configuration ${configId} does not exist`);
    return { configId, organisationId: stored?.organisationId ?? null, settings: resolveSettings(stored?.settings) };
  }

  async putConfig(organisationId: string, configId: string, settings: Partial<AnalyticsSettings>) {
    for (const override of settings.categoryOverrides ?? []) {
      try {
        new RegExp(override.match, "i");
      } catch {
        throw invalidRequest(`categoryOverrides: "${override.match}" is not a valid regular expression`);
      }
      if (!findCategory(override.category)) throw invalidRequest(`categoryOverrides: "${override.category}" is not a category`);
    }
    await this.#repo.putConfig(organisationId, configId, settings);
    return this.getConfig(organisationId, configId);
  }
}
