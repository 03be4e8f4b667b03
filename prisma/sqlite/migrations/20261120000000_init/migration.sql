-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateTable
CREATE TABLE "Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "installState" TEXT NOT NULL DEFAULT 'installed',
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "customerKey" TEXT,
    "clientId" TEXT,
    "clientSecretEncrypted" TEXT,
    "apiUrl" TEXT,
    "authUrl" TEXT,
    "rateUrl" TEXT,
    "primaryDomain" TEXT,
    "settings" TEXT NOT NULL DEFAULT '{}',
    "connectedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "eventId" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "processedAt" DATETIME,
    CONSTRAINT "WebhookDelivery_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProductMirror" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "payloadHash" TEXT,
    "payload" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "errorAt" DATETIME,
    "acceptedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "OrderState" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "sentUpdatedAt" DATETIME,
    "fingerprint" TEXT,
    "status" TEXT,
    "deliveryDueAt" DATETIME,
    "fulfillmentEvents" TEXT NOT NULL DEFAULT '{}',
    "error" TEXT,
    "errorAt" DATETIME,
    "sentAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SyncRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "bulkOperationId" TEXT,
    "resultUrl" TEXT,
    "since" DATETIME,
    "progress" TEXT NOT NULL DEFAULT '{}',
    "resumeAt" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "customerId" TEXT,
    "record" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");

-- CreateIndex
CREATE INDEX "WebhookDelivery_shopId_receivedAt_idx" ON "WebhookDelivery"("shopId", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "ProductMirror_shopId_status_idx" ON "ProductMirror"("shopId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ProductMirror_shopId_productId_key" ON "ProductMirror"("shopId", "productId");

-- CreateIndex
CREATE INDEX "OrderState_shopId_customerId_idx" ON "OrderState"("shopId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "OrderState_shopId_orderId_key" ON "OrderState"("shopId", "orderId");

-- CreateIndex
CREATE INDEX "SyncRun_shopId_kind_startedAt_idx" ON "SyncRun"("shopId", "kind", "startedAt");

-- CreateIndex
CREATE INDEX "ComplianceRequest_shopDomain_createdAt_idx" ON "ComplianceRequest"("shopDomain", "createdAt");

