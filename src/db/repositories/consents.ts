import type { PrismaClient, ConsentState, ConsentType } from "../../../generated/prisma/client.ts";

export interface LinkedAccountRecord {
  id: string;
  consentId: string;
  linkReferenceNumber: string;
  fipId: string;
  fipName: string;
  fiType: string;
  maskedAccountNumber: string;
  currentSnapshotId: string | null;
}

export interface ConsentRecord {
  id: string;
  organisationId: string;
  type: ConsentType;
  state: ConsentState;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConsentWithLinks extends ConsentRecord {
  linkedAccounts: LinkedAccountRecord[];
}

export class ConsentRepository {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  create(data: { id: string; organisationId: string; type: ConsentType; state: ConsentState }): Promise<ConsentRecord> {
    return this.#prisma.consent.create({ data });
  }

  findWithLinks(id: string): Promise<ConsentWithLinks | null> {
    return this.#prisma.consent.findUnique({
      where: { id },
      include: { linkedAccounts: { orderBy: { createdAt: "asc" } } },
    });
  }

  /** The organisation's consents among these ids, with their links (others are simply absent). */
  findManyWithLinks(ids: string[], organisationId: string): Promise<ConsentWithLinks[]> {
    return this.#prisma.consent.findMany({
      where: { id: { in: ids }, organisationId },
      include: { linkedAccounts: { orderBy: { createdAt: "asc" } } },
    });
  }

  /** The consent, only when it belongs to the organisation. */
  findForOrganisation(id: string, organisationId: string): Promise<ConsentRecord | null> {
    return this.#prisma.consent.findFirst({ where: { id, organisationId } });
  }

  updateState(id: string, state: ConsentState): Promise<ConsentRecord> {
    return this.#prisma.consent.update({ where: { id }, data: { state } });
  }

  createLink(data: Omit<LinkedAccountRecord, "id" | "currentSnapshotId">): Promise<LinkedAccountRecord> {
    return this.#prisma.linkedAccount.create({ data });
  }

  findLink(consentId: string, linkReferenceNumber: string): Promise<LinkedAccountRecord | null> {
    return this.#prisma.linkedAccount.findUnique({
      where: { consentId_linkReferenceNumber: { consentId, linkReferenceNumber } },
    });
  }

  /** Whether the link reference exists under any consent of the organisation. */
  async linkExistsInOrganisation(linkReferenceNumber: string, organisationId: string): Promise<boolean> {
    const found = await this.#prisma.linkedAccount.findFirst({
      where: { linkReferenceNumber, consent: { organisationId } },
      select: { id: true },
    });
    return found !== null;
  }
}
