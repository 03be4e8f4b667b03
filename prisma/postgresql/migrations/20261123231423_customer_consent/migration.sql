-- CreateTable
CREATE TABLE "CustomerConsent" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "emailState" TEXT,
    "emailUpdatedAt" TIMESTAMP(3),
    "smsState" TEXT,
    "smsUpdatedAt" TIMESTAMP(3),
    "whatsappState" TEXT,
    "whatsappUpdatedAt" TIMESTAMP(3),
    "readAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomerConsent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomerConsent_shopId_customerId_key" ON "CustomerConsent"("shopId", "customerId");

