-- CreateTable
CREATE TABLE "BackSyncState" (
    "shopId" TEXT NOT NULL,
    "cursor" TEXT,
    "shopDataDigest" TEXT,
    "definitionsEnabledAt" TIMESTAMP(3),
    "reconciledAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BackSyncState_pkey" PRIMARY KEY ("shopId")
);

-- CreateTable
CREATE TABLE "RatingDigest" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "average" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'written',
    "writtenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RatingDigest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowTriggerSent" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlowTriggerSent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RatingDigest_shopId_status_idx" ON "RatingDigest"("shopId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "RatingDigest_shopId_productId_key" ON "RatingDigest"("shopId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "FlowTriggerSent_shopId_handle_reviewId_key" ON "FlowTriggerSent"("shopId", "handle", "reviewId");

