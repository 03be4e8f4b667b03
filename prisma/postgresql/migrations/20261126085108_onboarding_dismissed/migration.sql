-- AlterTable
ALTER TABLE "AdminOnboarding" ADD COLUMN     "dismissedAt" TIMESTAMP(3);

