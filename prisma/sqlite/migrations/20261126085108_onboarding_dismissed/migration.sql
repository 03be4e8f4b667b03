-- AlterTable
ALTER TABLE "AdminOnboarding" ADD COLUMN "dismissedAt" DATETIME;

