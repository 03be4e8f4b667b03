-- CreateTable
CREATE TABLE "PendingReview" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "sealedPayload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "outcomeUnknown" BOOLEAN NOT NULL DEFAULT false,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "PendingReview_shop_idx" ON "PendingReview"("shop");

