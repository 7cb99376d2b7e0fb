import { Prisma, type PrismaClient } from "../../../generated/prisma/client.ts";

export interface OrganisationRecord {
  id: string;
  name: string;
  webhookUrl: string | null;
  webhookSecret: string;
  rateLimitMax: number | null;
  rateLimitWindowSecond: number | null;
  createdAt: Date;
}

export interface AppRecord {
  id: string;
  organisationId: string;
  appIdentifier: string;
  clientId: string;
  clientSecretHash: string;
  revokedAt: Date | null;
}

export interface PfmConfigRecord {
  id: string;
  organisationId: string;
  pfmConfigId: string;
  encryptionEnabled: boolean;
  clientPublicJwk: unknown;
}

export type OrganisationChanges = Partial<Pick<OrganisationRecord, "name" | "webhookUrl" | "rateLimitMax" | "rateLimitWindowSecond">>;

export class TenantRepository {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  createOrganisation(data: Omit<OrganisationRecord, "createdAt">): Promise<OrganisationRecord> {
    return this.#prisma.organisation.create({ data });
  }

  findOrganisation(id: string): Promise<OrganisationRecord | null> {
    return this.#prisma.organisation.findUnique({ where: { id } });
  }

  updateOrganisation(id: string, changes: OrganisationChanges): Promise<OrganisationRecord> {
    return this.#prisma.organisation.update({ where: { id }, data: changes });
  }

  createApp(data: Omit<AppRecord, "id" | "revokedAt">): Promise<AppRecord> {
    return this.#prisma.app.create({ data });
  }

  findAppByClientId(clientId: string): Promise<AppRecord | null> {
    return this.#prisma.app.findUnique({ where: { clientId } });
  }

  createPfmConfig(data: { organisationId: string; pfmConfigId: string }): Promise<PfmConfigRecord> {
    return this.#prisma.pfmConfig.create({ data });
  }

  updatePfmConfig(organisationId: string, pfmConfigId: string, changes: { encryptionEnabled: boolean; clientPublicJwk: object | null }): Promise<PfmConfigRecord> {
    return this.#prisma.pfmConfig.update({
      where: { organisationId_pfmConfigId: { organisationId, pfmConfigId } },
      data: { encryptionEnabled: changes.encryptionEnabled, clientPublicJwk: changes.clientPublicJwk ?? Prisma.DbNull },
    });
  }

  findPfmConfig(organisationId: string, pfmConfigId: string): Promise<PfmConfigRecord | null> {
    return this.#prisma.pfmConfig.findUnique({ where: { organisationId_pfmConfigId: { organisationId, pfmConfigId } } });
  }

  async countOrganisations(): Promise<number> {
    return this.#prisma.organisation.count();
  }
}
