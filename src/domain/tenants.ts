import { randomBytes } from "node:crypto";
import type { OrganisationRecord, PfmConfigRecord, TenantRepository } from "../db/repositories/tenants.ts";
import { isRecordMissing, isUniqueViolation } from "../db/repositories/errors.ts";
import { CredentialCache, decoyVerify, generateSecret, hashSecret, verifySecret } from "./credentials.ts";
import { conflict, invalidRequest, notFound } from "./errors.ts";

export interface RateLimitSetting {
  max: number;
  windowSeconds: number;
}

export interface Organisation {
  organisationId: string;
  name: string;
  webhookUrl: string | null;
  webhookSecret: string;
  rateLimit: RateLimitSetting | null;
  createdAt: string;
}

/** Who is calling: resolved from verified credentials, never from what the caller claims alone. */
export interface Tenant {
  organisationId: string;
  appId: string;
  appIdentifier: string;
  clientId: string;
}

function toOrganisation(record: OrganisationRecord): Organisation {
  return {
    organisationId: record.id,
    name: record.name,
    webhookUrl: record.webhookUrl,
    webhookSecret: record.webhookSecret,
    rateLimit:
      record.rateLimitMax !== null && record.rateLimitWindowSecond !== null
        ? { max: record.rateLimitMax, windowSeconds: record.rateLimitWindowSecond }
        : null,
    createdAt: record.createdAt.toISOString(),
  };
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export class TenantService {
  readonly #repo: TenantRepository;
  readonly #verified = new CredentialCache<Tenant>();

  constructor(repo: TenantRepository) {
    this.#repo = repo;
  }

  async createOrganisation(input: {
    organisationId: string;
    name: string;
    webhookUrl?: string | undefined;
    rateLimit?: RateLimitSetting | undefined;
    webhookSecret?: string | undefined;
  }): Promise<Organisation> {
    try {
      const record = await this.#repo.createOrganisation({
        id: input.organisationId,
        name: input.name,
        webhookUrl: input.webhookUrl ?? null,
        webhookSecret: input.webhookSecret ?? newWebhookSecret(),
        rateLimitMax: input.rateLimit?.max ?? null,
        rateLimitWindowSecond: input.rateLimit?.windowSeconds ?? null,
      });
      return toOrganisation(record);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`Organisation ${input.organisationId} already exists`);
      throw error;
    }
  }

  async getOrganisation(organisationId: string): Promise<Organisation> {
    const record = await this.#repo.findOrganisation(organisationId);
    if (!record) throw notFound(`Organisation ${organisationId} does not exist`);
    return toOrganisation(record);
  }

  async updateOrganisation(
    organisationId: string,
    changes: { name?: string; webhookUrl?: string | null; rateLimit?: RateLimitSetting | null },
  ): Promise<Organisation> {
    try {
      const record = await this.#repo.updateOrganisation(organisationId, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.webhookUrl !== undefined ? { webhookUrl: changes.webhookUrl } : {}),
        ...(changes.rateLimit !== undefined
          ? { rateLimitMax: changes.rateLimit?.max ?? null, rateLimitWindowSecond: changes.rateLimit?.windowSeconds ?? null }
          : {}),
      });
      return toOrganisation(record);
    } catch (error) {
      if (isRecordMissing(error)) throw notFound(`Organisation ${organisationId} does not exist`);
      throw error;
    }
  }

  /** Creates an application; the plain secret is returned here and never again. */
  async createApp(input: {
    organisationId: string;
    appIdentifier: string;
    clientId?: string | undefined;
    clientSecret?: string | undefined;
  }): Promise<{ appIdentifier: string; client_id: string; client_secret: string }> {
    await this.getOrganisation(input.organisationId);
    const clientId = input.clientId ?? `cl_${randomBytes(12).toString("hex")}`;
    const clientSecret = input.clientSecret ?? generateSecret();
    try {
      await this.#repo.createApp({
        organisationId: input.organisationId,
        appIdentifier: input.appIdentifier,
        clientId,
        clientSecretHash: await hashSecret(clientSecret),
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw conflict(`Application ${input.appIdentifier} or client_id ${clientId} already exists`);
      }
      throw error;
    }
    return { appIdentifier: input.appIdentifier, client_id: clientId, client_secret: clientSecret };
  }

  async createPfmConfig(organisationId: string, pfmConfigId: string): Promise<PfmConfigRecord> {
    await this.getOrganisation(organisationId);
    try {
      return await this.#repo.createPfmConfig({ organisationId, pfmConfigId });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`PFM configuration ${pfmConfigId} already exists`);
      throw error;
    }
  }

  findPfmConfig(organisationId: string, pfmConfigId: string): Promise<PfmConfigRecord | null> {
    return this.#repo.findPfmConfig(organisationId, pfmConfigId);
  }

  async getPfmConfig(organisationId: string, pfmConfigId: string): Promise<PfmConfigRecord> {
    const config = await this.#repo.findPfmConfig(organisationId, pfmConfigId);
    if (!config) throw notFound(`PFM configuration ${pfmConfigId} of ${organisationId} does not exist`);
    return config;
  }

  /** Payload encryption on (with the integration's public key) or off. */
  async setPfmEncryption(organisationId: string, pfmConfigId: string, encryption: { enabled: boolean; clientPublicJwk: object | null }): Promise<PfmConfigRecord> {
    if (encryption.enabled && !encryption.clientPublicJwk) throw invalidRequest("encryption.clientPublicJwk is required to enable encryption");
    await this.getPfmConfig(organisationId, pfmConfigId);
    return this.#repo.updatePfmConfig(organisationId, pfmConfigId, { encryptionEnabled: encryption.enabled, clientPublicJwk: encryption.clientPublicJwk });
  }

  /**
   * The application whose client_id and secret these are, or null. Unknown clients, wrong secrets
   * and revoked applications are indistinguishable to the caller, in answer and in time.
   */
  async authenticate(clientId: string, clientSecret: string): Promise<Tenant | null> {
    const cached = this.#verified.get(clientId, clientSecret);
    if (cached) return cached;
    const app = await this.#repo.findAppByClientId(clientId);
    if (!app) return decoyVerify(clientSecret).then(() => null);
    const valid = await verifySecret(clientSecret, app.clientSecretHash);
    if (!valid || app.revokedAt) return null;
    const tenant: Tenant = {
      organisationId: app.organisationId,
      appId: app.id,
      appIdentifier: app.appIdentifier,
      clientId: app.clientId,
    };
    this.#verified.set(clientId, clientSecret, tenant);
    return tenant;
  }
}
