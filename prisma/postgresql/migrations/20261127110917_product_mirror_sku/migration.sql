-- CreateIndex
CREATE INDEX "ProductMirror_shopId_sku_idx" ON "ProductMirror"("shopId", "sku");

