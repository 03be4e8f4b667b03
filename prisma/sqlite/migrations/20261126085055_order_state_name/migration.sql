-- AlterTable
ALTER TABLE "OrderState" ADD COLUMN "name" TEXT;

