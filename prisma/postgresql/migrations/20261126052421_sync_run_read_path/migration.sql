-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN     "pageCursor" TEXT,
ADD COLUMN     "readPath" TEXT,
ADD COLUMN     "readPathReason" TEXT;

