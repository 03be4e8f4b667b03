-- CreateTable
CREATE TABLE "CustomerConsent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "emailState" TEXT,
    "emailUpdatedAt" DATETIME,
    "smsState" TEXT,
    "smsUpdatedAt" DATETIME,
    "whatsappState" TEXT,
    "whatsappUpdatedAt" DATETIME,
    "readAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomerConsent_shopId_customerId_key" ON "CustomerConsent"("shopId", "customerId");

