-- CreateTable
CREATE TABLE "PendingReview" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "sealedPayload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "outcomeUnknown" BOOLEAN NOT NULL DEFAULT false,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PendingReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PendingReview_shop_idx" ON "PendingReview"("shop");

