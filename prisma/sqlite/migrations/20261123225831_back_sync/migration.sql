-- CreateTable
CREATE TABLE "BackSyncState" (
    "shopId" TEXT NOT NULL PRIMARY KEY,
    "cursor" TEXT,
    "shopDataDigest" TEXT,
    "definitionsEnabledAt" DATETIME,
    "reconciledAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RatingDigest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "average" REAL NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'written',
    "writtenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "FlowTriggerSent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "sentAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "RatingDigest_shopId_status_idx" ON "RatingDigest"("shopId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "RatingDigest_shopId_productId_key" ON "RatingDigest"("shopId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "FlowTriggerSent_shopId_handle_reviewId_key" ON "FlowTriggerSent"("shopId", "handle", "reviewId");

