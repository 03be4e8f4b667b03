-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "tokenState" TEXT NOT NULL DEFAULT 'ok',
ADD COLUMN     "tokenStateAt" TIMESTAMP(3),
ADD COLUMN     "tokenStateReason" TEXT;

