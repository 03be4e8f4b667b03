import type { googleFeed as en } from "../en/google-feed";

// Portuguese (Brazil) words of the Google product ratings feed: why a review is left out of it.

export const googleFeed: Record<keyof typeof en, string> = {
  "googleFeed.reason.not_published": "Não publicada",
  "googleFeed.reason.empty_content": "A avaliação não tem texto (o Google exige)",
  "googleFeed.reason.product_not_in_catalog": "O produto não está mais no catálogo sincronizado",
  "googleFeed.reason.product_inactive": "O produto está como rascunho, arquivado ou excluído no Shopify",
  "googleFeed.reason.no_product_identifier": "Sem GTIN (código de barras), nem MPN ou SKU junto com um fornecedor",
  "googleFeed.reason.no_product_url": "Sem página do produto no domínio principal da loja",
  "googleFeed.reason.invalid_rating": "A nota não é um número inteiro de 1 a 5",
  "googleFeed.reason.invalid_timestamp": "A avaliação não tem data válida",
  "googleFeed.reason.no_review_id": "A avaliação não tem identificador",
};
