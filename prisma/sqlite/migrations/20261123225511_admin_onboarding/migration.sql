-- CreateTable
CREATE TABLE "AdminOnboarding" (
    "shopId" TEXT NOT NULL PRIMARY KEY,
    "credentialsCheckedAt" DATETIME,
    "policyConfirmedAt" DATETIME,
    "themeConfirmedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AdminOnboarding_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

