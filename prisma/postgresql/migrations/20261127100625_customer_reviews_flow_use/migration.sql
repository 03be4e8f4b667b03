-- AlterTable
ALTER TABLE "BackSyncState" ADD COLUMN     "collectedCursor" TEXT;

-- CreateTable
CREATE TABLE "FlowTriggerUse" (
    "shopId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "inUse" BOOLEAN NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerUse_pkey" PRIMARY KEY ("shopId","handle")
);

-- CreateTable
CREATE TABLE "CustomerReview" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "reviewedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomerReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CustomerReview_shopId_customerId_reviewedAt_idx" ON "CustomerReview"("shopId", "customerId", "reviewedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerReview_shopId_reviewId_key" ON "CustomerReview"("shopId", "reviewId");

