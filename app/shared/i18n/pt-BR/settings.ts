import type { settings as en } from "../en/settings";

// Portuguese (Brazil) words of the settings page.

export const settings: Record<keyof typeof en, string> = {
  "settings.title": "Configurações",
  "settings.saved": "Configurações salvas.",
  "settings.notSaved": "Não salvo: corrija os campos marcados abaixo.",
  "settings.unchanged": "Nada para mudar.",
  "settings.section.catalog": "Catálogo",
  "settings.section.orders": "Pedidos",
  "settings.section.storefront": "Loja virtual",
  "settings.section.flow": "Shopify Flow",
  "settings.section.googleFeed": "Google Shopping",
  "settings.googleFeed.moved":
    "O endereço para colar no Google Merchant Center, e o que o feed contém, estão na página Google Shopping e app Shop.",
  "settings.googleFeed.open": "Abrir Google Shopping e app Shop",
  "settings.section.filters": "Filtrar por avaliação",
  "settings.filters.body":
    'Cada produto com avaliações publicadas leva sua nota média como número, "Rating (for filters)", para que os clientes restrinjam coleções e resultados de busca a produtos bem avaliados.',
  "settings.filters.step1": "No app Search & Discovery da Shopify, abra Filtros e escolha Adicionar filtro.",
  "settings.filters.step2": 'Escolha "Rating (for filters)" entre os metacampos de produto e salve.',
  "settings.filters.step3":
    'Para uma coleção como "Nota 4 ou mais", adicione a uma coleção automatizada a condição "Rating (for filters)" é maior que 3,9.',
  "settings.default": "Padrão: {value}",
  "settings.variantKeyWarning.title": "Mudar a chave de variante deixa avaliações órfãs",
  "settings.variantKeyWarning.body":
    "O serviço de avaliações guarda {count} avaliações da conta {customer}. Elas foram coletadas com {from}; depois da mudança o app envia {to}, e essas avaliações deixam de corresponder às suas variantes e itens de pedido.",
  "settings.variantKeyWarning.confirm": "Entendo: mudar mesmo assim",
  "settings.variantKeyWarning.unknown":
    "Não foi possível perguntar ao serviço quantas avaliações ele guarda ({reason}). Confirme para mudar a chave de variante sem verificar.",
  "settings.variantKeyWarning.none":
    "O serviço de avaliações não guarda avaliações desta conta: mudar a chave de variante não deixa nada órfão.",
  "settings.variantKeyResync":
    "Uma sincronização completa do catálogo começou para o serviço receber as novas chaves de variante.",
  "settings.keys.id": "ids de variante",
  "settings.keys.sku": "SKUs de variante",
  "settings.invalid.enum": "Escolha uma das opções.",
  "settings.invalid.text": "Obrigatório.",
  "settings.invalid.pattern": "Use o formato namespace.chave.",
  "settings.invalid.number": "Informe um número inteiro.",
  "settings.invalid.range": "Informe um número de {min} a {max}.",
  "settings.invalid.list": "Separe os valores por vírgulas.",
  "settings.invalid.onlyWhen": "Usado só quando {when}.",
  "settings.listHelp": "Separados por vírgula; vazio para nenhum.",
  "settings.nullableHelp": "Vazio para desligado.",

  "setting.catalog.variantKey": "Chave de variante",
  "setting.catalog.variantKey.help": "O que o app envia como chave de cada variante ao serviço de avaliações.",
  "setting.catalog.variantKey.id": "Id da variante (estável)",
  "setting.catalog.variantKey.sku": "SKU da variante",
  "setting.catalog.defaultCategory": "Categoria padrão",
  "setting.catalog.defaultCategory.help": "Usada para um produto sem tipo, categoria da taxonomia ou coleção.",
  "setting.catalog.specificationMetafields": "Metacampos de especificação",
  "setting.catalog.specificationMetafields.help":
    "Metacampos de produto enviados como especificações, no formato namespace.chave, separados por vírgula.",
  "setting.orders.orderIdSource": "Como os pedidos são identificados no serviço de avaliações",
  "setting.orders.orderIdSource.help":
    "O nome do pedido (#1001) é o que o comprador vê e digita ao avaliar como visitante. O ID do pedido na Shopify é um número longo que o comprador nunca vê, e não muda se os nomes dos pedidos mudarem.",
  "setting.orders.orderIdSource.id": "ID do pedido na Shopify (o comprador nunca o vê)",
  "setting.orders.orderIdSource.name": "Nome do pedido que o comprador vê, como #1001",
  "setting.orders.seller.mode": "Vendedor",
  "setting.orders.seller.mode.help": "Para marketplaces: quem vendeu cada item.",
  "setting.orders.seller.mode.none": "Sem vendedor",
  "setting.orders.seller.mode.vendor": "O fornecedor do produto",
  "setting.orders.seller.mode.property": "Uma propriedade do item",
  "setting.orders.seller.property": "Nome da propriedade do vendedor",
  "setting.orders.seller.property.help": "A propriedade do item do pedido que nomeia o vendedor.",
  "setting.orders.deliveredAfterDays": "Marcar como entregue após (dias)",
  "setting.orders.deliveredAfterDays.help":
    "Para lojas que nunca recebem o evento de entrega: dias após o envio. Vazio para desligado.",
  "setting.storefront.guestReviews": "Avaliações de visitantes sem pedido",
  "setting.storefront.guestReviews.help":
    "Clientes sem login e sem um número de pedido podem avaliar informando o e-mail. Desativado por padrão: essas avaliações não são compras verificadas.",
  "setting.storefront.guestQuestions": "Perguntas de visitantes",
  "setting.storefront.guestQuestions.help":
    "Clientes sem login podem fazer uma pergunta informando nome e e-mail. Desativado por padrão: só clientes com login e compradores que informam o pedido podem perguntar.",
  "setting.storefront.photosPerReview": "Fotos por avaliação",
  "setting.storefront.photosPerReview.help":
    "Quantas fotos o cliente pode anexar a uma avaliação (0 a 10; 0 desativa as fotos).",
  "setting.storefront.photoMaxMb": "Tamanho máximo da foto (MB)",
  "setting.storefront.photoMaxMb.help": "JPEG, PNG, WebP ou HEIC até este tamanho (1 a 20 MB).",
  "setting.storefront.videoMaxMb": "Tamanho máximo do vídeo (MB)",
  "setting.storefront.videoMaxMb.help":
    "Um vídeo MP4, MOV ou WebM por avaliação até este tamanho (0 desativa o vídeo).",
  "setting.googleFeed.incentivizedReviews": "Ofereço incentivos por avaliações",
  "setting.googleFeed.incentivizedReviews.help":
    "Ative se os compradores recebem algo por escrever uma avaliação: um desconto, pontos de fidelidade, um brinde, um produto grátis ou a participação em um sorteio. O Google exige que essas avaliações sejam marcadas, e o serviço de avaliações não informa quais foram; por isso, todas as avaliações do feed do Google passam a ser marcadas como incentivadas. Desativado: o feed não diz nada sobre incentivos.",
  "setting.flow.negativeRatingAtOrBelow": "Avaliação negativa: nota igual ou menor que",
  "setting.flow.negativeRatingAtOrBelow.help":
    'O gatilho "Avaliação negativa recebida" do Shopify Flow dispara para avaliações com esta nota ou menos (1 a 4).',
  "setting.orders.optOut.email": "Pedidos de avaliação por e-mail",
  "setting.orders.optOut.sms": "Pedidos de avaliação por SMS",
  "setting.orders.optOut.whatsapp": "Pedidos de avaliação por WhatsApp",
  "setting.orders.optOut.help": "Quem o serviço de avaliações pode contatar neste canal.",
  "setting.optOut.consent": "Só compradores que aceitaram marketing",
  "setting.optOut.unsubscribed": "Todos os compradores que não cancelaram a inscrição",
  "setting.optOut.never": "Todo comprador (o pedido é sobre uma compra)",
  "setting.optOut.always": "Ninguém",
  "setting.orders.exclude.testOrders": "Deixar de fora pedidos de teste",
  "setting.orders.exclude.giftCardOnly": "Deixar de fora pedidos só de vale-presente",
  "setting.orders.exclude.sourceNames": "Deixar de fora pedidos destes canais de venda",
  "setting.orders.exclude.sourceNames.help": "Nomes de origem como pos ou shopify_draft_order, separados por vírgula.",
  "setting.orders.backfillDays": "Pedidos enviados ao conectar (dias para trás)",
  "setting.orders.backfillDays.help": "A Shopify dá os últimos 60 dias sem permissão extra.",
};
