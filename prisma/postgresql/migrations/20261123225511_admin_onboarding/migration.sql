-- CreateTable
CREATE TABLE "AdminOnboarding" (
    "shopId" TEXT NOT NULL,
    "credentialsCheckedAt" TIMESTAMP(3),
    "policyConfirmedAt" TIMESTAMP(3),
    "themeConfirmedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AdminOnboarding_pkey" PRIMARY KEY ("shopId")
);

-- AddForeignKey
ALTER TABLE "AdminOnboarding" ADD CONSTRAINT "AdminOnboarding_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
