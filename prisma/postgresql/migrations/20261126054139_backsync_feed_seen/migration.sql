-- AlterTable
ALTER TABLE "BackSyncState" ADD COLUMN     "feedSeen" TEXT;

