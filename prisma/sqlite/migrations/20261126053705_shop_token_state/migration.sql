-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
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
    "updatedAt" DATETIME NOT NULL,
    "tokenState" TEXT NOT NULL DEFAULT 'ok',
    "tokenStateReason" TEXT,
    "tokenStateAt" DATETIME
);
INSERT INTO "new_Shop" ("apiUrl", "authUrl", "clientId", "clientSecretEncrypted", "connectedAt", "createdAt", "customerKey", "domain", "id", "installState", "installedAt", "primaryDomain", "rateUrl", "settings", "uninstalledAt", "updatedAt") SELECT "apiUrl", "authUrl", "clientId", "clientSecretEncrypted", "connectedAt", "createdAt", "customerKey", "domain", "id", "installState", "installedAt", "primaryDomain", "rateUrl", "settings", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

