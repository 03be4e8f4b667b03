-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN "pageCursor" TEXT;
ALTER TABLE "SyncRun" ADD COLUMN "readPath" TEXT;
ALTER TABLE "SyncRun" ADD COLUMN "readPathReason" TEXT;

