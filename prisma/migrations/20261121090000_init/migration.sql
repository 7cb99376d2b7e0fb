-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ConsentType" AS ENUM ('PERIODIC', 'ONETIME');

-- CreateEnum
CREATE TYPE "ConsentState" AS ENUM ('ACTIVE', 'PAUSED', 'REVOKED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "JourneyStatus" AS ENUM ('PENDING', 'COMPLETED', 'FAILED');

-- CreateEnum
CREATE TYPE "TransactionType" AS ENUM ('CREDIT', 'DEBIT');

-- CreateEnum
CREATE TYPE "BatchStatus" AS ENUM ('FILE_UPLOADED', 'PROCESSING', 'COMPLETED', 'COMPLETED_WITH_ERRORS');

-- CreateEnum
CREATE TYPE "RowState" AS ENUM ('SCHEDULED', 'REQUESTED', 'DATA_READY', 'FAILED');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateEnum
CREATE TYPE "KeyUse" AS ENUM ('SIG', 'ENC');

-- CreateTable
CREATE TABLE "Organisation" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "webhookUrl" TEXT,
    "webhookSecret" TEXT NOT NULL,
    "rateLimitMax" INTEGER,
    "rateLimitWindowSecond" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Organisation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "App" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organisationId" TEXT NOT NULL,
    "appIdentifier" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "App_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PfmConfig" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organisationId" TEXT NOT NULL,
    "pfmConfigId" TEXT NOT NULL,
    "encryptionEnabled" BOOLEAN NOT NULL DEFAULT false,
    "clientPublicJwk" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PfmConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Consent" (
    "id" UUID NOT NULL,
    "organisationId" TEXT NOT NULL,
    "type" "ConsentType" NOT NULL,
    "state" "ConsentState" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Consent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkedAccount" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "consentId" UUID NOT NULL,
    "linkReferenceNumber" UUID NOT NULL,
    "fipId" TEXT NOT NULL,
    "fipName" TEXT NOT NULL,
    "fiType" TEXT NOT NULL,
    "maskedAccountNumber" TEXT NOT NULL,
    "currentSnapshotId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LinkedAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Journey" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "consentId" UUID NOT NULL,
    "status" "JourneyStatus" NOT NULL DEFAULT 'PENDING',
    "configId" TEXT NOT NULL DEFAULT 'default',
    "source" TEXT NOT NULL DEFAULT 'admin',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Journey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FiDataSnapshot" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "linkedAccountId" UUID NOT NULL,
    "journeyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "fiType" TEXT NOT NULL,
    "maskedAccountNumber" TEXT NOT NULL,
    "balance" DECIMAL NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'INR',
    "profile" JSONB NOT NULL,
    "summary" JSONB NOT NULL,
    "transactionsStart" TEXT,
    "transactionsEnd" TEXT,
    "schemaVersion" TEXT NOT NULL,
    "sourceFormat" TEXT NOT NULL,
    "transactionCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FiDataSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FiTransaction" (
    "snapshotId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "txnId" TEXT NOT NULL,
    "type" "TransactionType" NOT NULL,
    "amount" DECIMAL NOT NULL,
    "currentBalance" DECIMAL,
    "transactionTimestamp" TIMESTAMPTZ(3) NOT NULL,
    "transactionTimeText" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "sourceMode" TEXT,
    "sourceType" TEXT,
    "narration" TEXT,
    "reference" TEXT,
    "valueDate" TEXT,

    CONSTRAINT "FiTransaction_pkey" PRIMARY KEY ("snapshotId","position")
);

-- CreateTable
CREATE TABLE "AnalyticsConfig" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organisationId" TEXT,
    "configId" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AnalyticsConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsResult" (
    "journeyId" TEXT NOT NULL,
    "configId" TEXT NOT NULL,
    "runId" UUID NOT NULL,
    "result" JSONB NOT NULL,
    "computedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnalyticsResult_pkey" PRIMARY KEY ("journeyId")
);

-- CreateTable
CREATE TABLE "BulkBatch" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organisationId" TEXT NOT NULL,
    "referenceId" TEXT NOT NULL,
    "status" "BatchStatus" NOT NULL DEFAULT 'FILE_UPLOADED',
    "fileName" TEXT,
    "fileType" TEXT NOT NULL,
    "totalRecords" INTEGER NOT NULL,
    "globalConfig" JSONB NOT NULL,
    "txnid" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BulkBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkRow" (
    "id" BIGSERIAL NOT NULL,
    "batchId" UUID NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "consentId" TEXT NOT NULL,
    "fiDataRangeFrom" TEXT,
    "fiDataRangeTo" TEXT,
    "configId" TEXT,
    "state" "RowState" NOT NULL DEFAULT 'SCHEDULED',
    "failureReason" TEXT,
    "journeyId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BulkRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SdkSession" (
    "id" UUID NOT NULL,
    "organisationId" TEXT NOT NULL,
    "appId" UUID NOT NULL,
    "pfmConfigId" UUID NOT NULL,
    "referenceId" TEXT NOT NULL,
    "signingKeyId" TEXT NOT NULL,
    "profileSealed" TEXT NOT NULL,
    "issuedAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SdkSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceKey" (
    "kid" TEXT NOT NULL,
    "use" "KeyUse" NOT NULL,
    "alg" TEXT NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "privateSealed" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),

    CONSTRAINT "ServiceKey_pkey" PRIMARY KEY ("kid")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "targetUrl" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastResponseCode" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" BIGSERIAL NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "responseCode" INTEGER,
    "error" TEXT,
    "succeeded" BOOLEAN NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "App_clientId_key" ON "App"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "App_organisationId_appIdentifier_key" ON "App"("organisationId", "appIdentifier");

-- CreateIndex
CREATE UNIQUE INDEX "PfmConfig_organisationId_pfmConfigId_key" ON "PfmConfig"("organisationId", "pfmConfigId");

-- CreateIndex
CREATE INDEX "Consent_organisationId_idx" ON "Consent"("organisationId");

-- CreateIndex
CREATE UNIQUE INDEX "LinkedAccount_currentSnapshotId_key" ON "LinkedAccount"("currentSnapshotId");

-- CreateIndex
CREATE INDEX "LinkedAccount_linkReferenceNumber_idx" ON "LinkedAccount"("linkReferenceNumber");

-- CreateIndex
CREATE UNIQUE INDEX "LinkedAccount_consentId_linkReferenceNumber_key" ON "LinkedAccount"("consentId", "linkReferenceNumber");

-- CreateIndex
CREATE INDEX "Journey_consentId_idx" ON "Journey"("consentId");

-- CreateIndex
CREATE UNIQUE INDEX "FiDataSnapshot_linkedAccountId_version_key" ON "FiDataSnapshot"("linkedAccountId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsConfig_organisationId_configId_key" ON "AnalyticsConfig"("organisationId", "configId");

-- CreateIndex
CREATE UNIQUE INDEX "BulkBatch_organisationId_referenceId_key" ON "BulkBatch"("organisationId", "referenceId");

-- CreateIndex
CREATE UNIQUE INDEX "BulkRow_batchId_rowNumber_key" ON "BulkRow"("batchId", "rowNumber");

-- CreateIndex
CREATE INDEX "SdkSession_organisationId_referenceId_idx" ON "SdkSession"("organisationId", "referenceId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_organisationId_createdAt_idx" ON "WebhookDelivery"("organisationId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_idx" ON "WebhookAttempt"("deliveryId");

-- AddForeignKey
ALTER TABLE "App" ADD CONSTRAINT "App_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PfmConfig" ADD CONSTRAINT "PfmConfig_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Consent" ADD CONSTRAINT "Consent_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkedAccount" ADD CONSTRAINT "LinkedAccount_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "Consent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkedAccount" ADD CONSTRAINT "LinkedAccount_currentSnapshotId_fkey" FOREIGN KEY ("currentSnapshotId") REFERENCES "FiDataSnapshot"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Journey" ADD CONSTRAINT "Journey_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Journey" ADD CONSTRAINT "Journey_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "Consent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FiDataSnapshot" ADD CONSTRAINT "FiDataSnapshot_linkedAccountId_fkey" FOREIGN KEY ("linkedAccountId") REFERENCES "LinkedAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FiDataSnapshot" ADD CONSTRAINT "FiDataSnapshot_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FiTransaction" ADD CONSTRAINT "FiTransaction_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "FiDataSnapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnalyticsConfig" ADD CONSTRAINT "AnalyticsConfig_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnalyticsResult" ADD CONSTRAINT "AnalyticsResult_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkBatch" ADD CONSTRAINT "BulkBatch_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkRow" ADD CONSTRAINT "BulkRow_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "BulkBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkRow" ADD CONSTRAINT "BulkRow_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SdkSession" ADD CONSTRAINT "SdkSession_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SdkSession" ADD CONSTRAINT "SdkSession_appId_fkey" FOREIGN KEY ("appId") REFERENCES "App"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SdkSession" ADD CONSTRAINT "SdkSession_pfmConfigId_fkey" FOREIGN KEY ("pfmConfigId") REFERENCES "PfmConfig"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

