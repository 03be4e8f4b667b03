-- AlterTable
ALTER TABLE "ProductMirror" ADD COLUMN     "sourceVersion" TEXT;

-- AlterTable
ALTER TABLE "OrderState" ADD COLUMN     "sentVersion" TEXT;

