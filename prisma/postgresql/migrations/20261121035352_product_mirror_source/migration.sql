-- AlterTable
ALTER TABLE "ProductMirror" ADD COLUMN     "categoriesFrom" TEXT,
ADD COLUMN     "sourceUpdatedAt" TIMESTAMP(3);
