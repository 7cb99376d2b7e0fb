import type { ConsentService } from "../consents.ts";
import type { IngestionService } from "../fi-data/ingestion.ts";
import type { TenantService } from "../tenants.ts";
import { currentAccount, recurringDeposit, savingsAccount, termDeposit } from "./statements.ts";

/** The demo tenant of DESIGN.md; the README lists every identifier. */
export const DEMO = {
  organisationId: "demo-org",
  appIdentifier: "demo-app",
  clientId: "demo-client",
  clientSecret: "demo-secret",
  pfmConfigId: "demo-pfm",
  other: { organisationId: "other-org", appIdentifier: "other-app", clientId: "other-client", clientSecret: "other-secret" },
  consents: {
    activePeriodic: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
    activeOnetime: "7a2d3e4f-5b6c-4d7e-9f80-a1b2c3d4e5f6",
    paused: "8b3e4f5a-6c7d-4e8f-8a91-b2c3d4e5f607",
    revoked: "9c4f5a6b-7d8e-4f90-9ba2-c3d4e5f60718",
    expired: "ad5a6b7c-8e9f-4a01-8cb3-d4e5f6071829",
    otherOrganisation: "be6b7c8d-9fa0-4b12-9dc4-e5f607182930",
  },
  links: {
    savings: "0b8e4c1a-6c2f-4d8e-9a51-1f0e6a7b2c3d",
    current: "1c9f5d2b-7d30-4e9f-8b62-2a1f7b8c3d4e",
    termDeposit: "2da06e3c-8e41-4fa0-9c73-3b2a8c9d4e5f",
    noDataYet: "3eb17f4d-9f52-4ab1-8d84-4c3b9dae5f60",
    recurringDeposit: "4fc28a5e-a063-4bc2-9e95-5d4caebf6071",
    fixedDepositHyphenated: "50d39b6f-b174-4cd3-8fa6-6e5dbfc07182",
    paused: "61e4ac70-c285-4de4-9ab7-7f6ec0d18293",
    revoked: "72f5bd81-d396-4ef5-8bc8-80fd1e2293a4",
    expired: "83a6ce92-e4a7-4f06-9cd9-91ae2f33a4b5",
    otherOrganisation: "94b7dfa3-f5b8-4a17-8dea-a2bf3a44b5c6",
  },
  journeys: {
    activePeriodic: "jrn-demo-active-periodic",
    activeOnetime: "jrn-demo-active-onetime",
    paused: "jrn-demo-paused",
    revoked: "jrn-demo-revoked",
    expired: "jrn-demo-expired",
    otherOrganisation: "jrn-other-org",
  },
} as const;

const FIP = { fipId: "DEMO-FIP", fipName: "Demo Bank" };

export interface SeedServices {
  tenants: TenantService;
  consents: ConsentService;
  ingestion: IngestionService;
}

interface AccountPlan {
  link: string;
  masked: string;
  fiType: "DEPOSIT" | "TERM_DEPOSIT" | "TERM-DEPOSIT" | "RECURRING_DEPOSIT";
  document: (link: string, masked: string) => Record<string, unknown>;
}

async function consentWithData(
  services: SeedServices,
  plan: { organisationId: string; consentID: string; type: "PERIODIC" | "ONETIME"; state: string; journeyID: string; accounts: AccountPlan[]; withoutData?: AccountPlan[] },
) {
  // Data is received while the consent is ACTIVE; its final state is set afterwards.
  await services.consents.create({ consentID: plan.consentID, organisationId: plan.organisationId, type: plan.type, state: "ACTIVE" });
  for (const account of [...plan.accounts, ...(plan.withoutData ?? [])]) {
    await services.consents.link(plan.consentID, {
      linkReferenceNumber: account.link,
      ...FIP,
      fiType: account.fiType,
      maskedAccountNumber: account.masked,
    });
  }
  await services.ingestion.ingest({
    consentID: plan.consentID,
    journeyID: plan.journeyID,
    source: "demo",
    accounts: plan.accounts.map((account) => ({
      linkReferenceNumber: account.link,
      ...FIP,
      fiType: account.fiType,
      format: "json",
      data: account.document(account.link, account.masked),
    })),
  });
  if (plan.state !== "ACTIVE") await services.consents.changeState(plan.consentID, plan.state);
}

/**
 * Creates the demo tenant (and a second organisation for tenancy checks) with consents in every
 * state and a year of realistic data. Returns false, changing nothing, when it exists already.
 */
export async function seedDemo(services: SeedServices, options: { asOf: string }): Promise<boolean> {
  const existing = await services.tenants.getOrganisation(DEMO.organisationId).catch(() => null);
  if (existing) return false;
  const { asOf } = options;
  const year = { asOf, months: 12 };

  await services.tenants.createOrganisation({ organisationId: DEMO.organisationId, name: "Demo Lending Pvt Ltd" });
  await services.tenants.createApp({ organisationId: DEMO.organisationId, appIdentifier: DEMO.appIdentifier, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret });
  await services.tenants.createPfmConfig(DEMO.organisationId, DEMO.pfmConfigId);

  const savings = (seed: number) => (link: string, masked: string) => savingsAccount({ ...year, seed, linkedAccRef: link, maskedAccNumber: masked });
  const org = DEMO.organisationId;
  await consentWithData(services, {
    organisationId: org,
    consentID: DEMO.consents.activePeriodic,
    type: "PERIODIC",
    state: "ACTIVE",
    journeyID: DEMO.journeys.activePeriodic,
    accounts: [
      { link: DEMO.links.savings, masked: "XXXXXXXX4321", fiType: "DEPOSIT", document: savings(101) },
      { link: DEMO.links.current, masked: "XXXXXXXX8765", fiType: "DEPOSIT", document: (link, masked) => currentAccount({ ...year, seed: 202, linkedAccRef: link, maskedAccNumber: masked }) },
      { link: DEMO.links.termDeposit, masked: "XXXXXXXX0042", fiType: "TERM_DEPOSIT", document: (link, masked) => termDeposit({ ...year, seed: 303, linkedAccRef: link, maskedAccNumber: masked }) },
    ],
    withoutData: [{ link: DEMO.links.noDataYet, masked: "XXXXXXXX9911", fiType: "DEPOSIT", document: savings(0) }],
  });
  await consentWithData(services, {
    organisationId: org,
    consentID: DEMO.consents.activeOnetime,
    type: "ONETIME",
    state: "ACTIVE",
    journeyID: DEMO.journeys.activeOnetime,
    accounts: [
      { link: DEMO.links.recurringDeposit, masked: "XXXXXXXX7310", fiType: "RECURRING_DEPOSIT", document: (link, masked) => recurringDeposit({ ...year, seed: 404, linkedAccRef: link, maskedAccNumber: masked }) },
      { link: DEMO.links.fixedDepositHyphenated, masked: "XXXXXXXX5520", fiType: "TERM-DEPOSIT", document: (link, masked) => termDeposit({ ...year, seed: 505, linkedAccRef: link, maskedAccNumber: masked, principalRupees: 500000, ratePercent: 7.4 }) },
    ],
  });
  for (const [state, consentID, link, journeyID, seed] of [
    ["PAUSED", DEMO.consents.paused, DEMO.links.paused, DEMO.journeys.paused, 606],
    ["REVOKED", DEMO.consents.revoked, DEMO.links.revoked, DEMO.journeys.revoked, 707],
    ["EXPIRED", DEMO.consents.expired, DEMO.links.expired, DEMO.journeys.expired, 808],
  ] as const) {
    await consentWithData(services, {
      organisationId: org,
      consentID,
      type: "PERIODIC",
      state,
      journeyID,
      accounts: [{ link, masked: `XXXXXXXX${String(seed).padStart(4, "0")}`, fiType: "DEPOSIT", document: savings(seed) }],
    });
  }

  const other = DEMO.other;
  await services.tenants.createOrganisation({ organisationId: other.organisationId, name: "Other Wealth Ltd" });
  await services.tenants.createApp({ organisationId: other.organisationId, appIdentifier: other.appIdentifier, clientId: other.clientId, clientSecret: other.clientSecret });
  await consentWithData(services, {
    organisationId: other.organisationId,
    consentID: DEMO.consents.otherOrganisation,
    type: "PERIODIC",
    state: "ACTIVE",
    journeyID: DEMO.journeys.otherOrganisation,
    accounts: [{ link: DEMO.links.otherOrganisation, masked: "XXXXXXXX3141", fiType: "DEPOSIT", document: savings(909) }],
  });
  return true;
}
