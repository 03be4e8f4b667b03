import type { shopApp as en } from "../en/shop-app";

// Portuguese (Brazil) words of the Shop app section.

export const shopApp: Record<keyof typeof en, string> = {
  "shopApp.title": "Avaliações no app Shop",
  "shopApp.intro":
    "As avaliações publicadas são gravadas no formato padrão de avaliações de produtos da Shopify, o que as torna elegíveis para o app Shop. A Shopify decide quais exibe.",
  "shopApp.program.enabled": "Ativo: esta loja está no programa de avaliações de produtos da Shopify",
  "shopApp.program.notGranted":
    "Indisponível: a Shopify ainda não liberou o programa de avaliações de produtos para este app",
  "shopApp.program.unknown": "Ainda não verificado: a próxima sincronização de avaliações vai consultar a Shopify",
  "shopApp.checkedAt": "Verificado com a Shopify: {date}",
  "shopApp.notGranted.help":
    "As avaliações continuam aparecendo na sua loja e nas notas em estrelas. O app consulta a Shopify de novo todos os dias.",
  "shopApp.backfill.inProgress":
    "Suas avaliações anteriores ainda estão sendo gravadas; as novas seguem conforme são publicadas.",
  "shopApp.figure.eligible": "Avaliações publicadas",
  "shopApp.figure.syndicated": "No formato de avaliações da Shopify",
  "shopApp.figure.leftOut": "Deixadas de fora",
  "shopApp.figure.inShopify": "A Shopify tem {count} avaliações.",
  "shopApp.figure.inShopify.one": "A Shopify tem {count} avaliação.",
  "shopApp.figure.inShopify.other": "A Shopify tem {count} avaliações.",
  "shopApp.leftOut.title": "Por que avaliações ficaram de fora",
  "shopApp.leftOut.mostNoOrder":
    "{noOrder} das {count} deixadas de fora apenas não estão ligadas a um pedido (escritas na sua loja sem pedido, ou importadas): o app Shop mostra só avaliações do pedido de um comprador. Elas continuam aparecendo na sua loja.",
  "shopApp.leftOut.mostNoOrder.one":
    "A única avaliação deixada de fora apenas não está ligada a um pedido (escrita na sua loja sem pedido, ou importada): o app Shop mostra só avaliações do pedido de um comprador. Ela continua aparecendo na sua loja.",
  "shopApp.leftOut.none": "Nenhuma avaliação publicada ficou de fora.",
  "shopApp.reason.no_order": "Sem pedido vinculado (o app Shop exige o pedido)",
  "shopApp.reason.no_customer": "O pedido não tem conta de cliente (compra como visitante)",
  "shopApp.reason.no_product": "O produto não é um produto da Shopify desta loja",
  "shopApp.reason.no_submitted_at": "A avaliação não tem data de envio",
  "shopApp.reason.refused": "A Shopify recusou (o campo está nos logs do app)",
  "shopApp.reason.count": "{count} avaliações",
  "shopApp.reason.count.one": "{count} avaliação",
  "shopApp.reason.count.other": "{count} avaliações",
};
