-- AlterTable
ALTER TABLE "ProductMirror" ADD COLUMN "categoriesFrom" TEXT;
ALTER TABLE "ProductMirror" ADD COLUMN "sourceUpdatedAt" DATETIME;

