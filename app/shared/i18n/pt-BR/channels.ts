import type { channels as en } from "../en/channels";

// Portuguese (Brazil) words of the "Google Shopping e app Shop" page.

export const channels: Record<keyof typeof en, string> = {
  "nav.channels": "Google Shopping e app Shop",
  "channels.title": "Google Shopping e app Shop",
  "channels.google.title": "Google Shopping",
  "channels.google.body":
    "O Google mostra estrelas de avaliação em anúncios do Shopping e em listagens gratuitas a partir de um feed de avaliações de produtos que você cadastra no Merchant Center. Este endereço fornece suas avaliações publicadas no formato do Google, no domínio da sua loja.",
  "channels.google.url": "Endereço do feed para o Merchant Center",
  "channels.google.copy": "Copiar",
  "channels.google.copied": "Endereço do feed copiado",
  "channels.google.copyFailed": "O navegador não permitiu copiar: selecione o endereço e copie-o",
  "channels.google.urlHelp":
    "No Google Merchant Center, adicione um feed de avaliações de produtos que busque este endereço de forma programada (uma vez por dia basta).",
  "channels.google.noUrl": "Não foi possível montar o endereço do feed a partir do domínio da sua loja.",
  "channels.google.none":
    "O Merchant Center ainda não buscou o feed. Depois da primeira busca, esta página mostra o que o feed continha.",
  "channels.google.belowMinimum":
    "O Google só aceita um feed de avaliações de lojas com pelo menos {minimum} avaliações somando todos os produtos. Seu feed tem {count}, então o Google ainda não mostra as notas dele.",
  "channels.google.stale":
    "O feed foi buscado pela última vez em {date}. O Google deixa de usar um feed que não é atualizado pelo menos uma vez por mês: confira a programação da busca no Merchant Center.",
  "channels.google.ok": "Seu feed tem mais que o mínimo de {minimum} avaliações exigido pelo Google.",
  "channels.google.included": "Avaliações no feed",
  "channels.google.minimum": "Mínimo do Google",
  "channels.google.builtAt": "Última geração",
  "channels.google.fetchedAt": "Última busca",
  "channels.google.never": "Ainda não",
  "channels.google.overSize":
    "{count} avaliações ficaram de fora para manter o arquivo abaixo do limite de tamanho do Google.",
  "channels.leftOut.title": "Produtos fora do feed",
  "channels.leftOut.body":
    "As avaliações destes produtos não estão no feed, pelos motivos indicados. Corrija o produto no Shopify: a próxima busca inclui as avaliações dele.",
  "channels.leftOut.product": "Produto",
  "channels.leftOut.products": "Produtos fora do feed",
  "channels.leftOut.reasons": "Motivo",
  "channels.leftOut.fix": "Corrigir",
  "channels.leftOut.edit": "Editar no Shopify",
  "channels.leftOut.editLabel": "Editar no Shopify: {product}",
  "channels.leftOut.noLink": "Sem vínculo com um produto do Shopify",
  "channels.leftOut.key": "Chave do catálogo {key}",
  "channels.leftOut.empty": "Nenhum produto fora do feed",
  "channels.leftOut.emptyBody": "Todos os produtos com avaliações no último feed tinham o que o Google precisa.",
  "channels.leftOut.capped": "A lista mostra os primeiros {count} produtos fora do feed.",
};
