import type { common as en } from "../en/common";

// Portuguese (Brazil) words of app, navigation, shared controls and errors.

export const common: Record<keyof typeof en, string> = {
  "app.name": "Avaliações",
  "nav.home": "Início",
  "nav.sync": "Sincronização",
  "nav.settings": "Configurações",
  "nav.reviews": "Avaliações",
  "nav.questions": "Perguntas",
  "nav.surveys": "Pesquisas",
  "nav.report": "Relatório de produtos",
  "nav.groups": "Grupos de produtos",

  "common.retry": "Tentar de novo",
  "common.save": "Salvar",
  "common.discard": "Descartar",
  "common.cancel": "Cancelar",
  "common.delete": "Excluir",
  "common.edit": "Editar",
  "common.loading": "Carregando…",
  "common.yes": "Sim",
  "common.no": "Não",
  "common.any": "Qualquer",
  "common.none": "Nenhum",
  "common.previous": "Anterior",
  "common.next": "Próxima",
  "common.pageOf": "Página {page} de {pages}",
  "common.total": "{count} no total",
  "charts.showTable": "Mostrar como tabela",
  "charts.hideTable": "Ocultar tabela",
  "charts.month": "Mês",
  "common.error.title": "Algo deu errado",
  "common.error.body": "Não foi possível carregar a página. Verifique sua conexão e tente de novo.",
  "common.notConnected": "Conecte primeiro sua conta de avaliações: o serviço guarda estes dados.",
  "common.connectLink": "Ir para o formulário de conexão",
  "app.tokenNeedsMerchant":
    "O Shopify deixou de aceitar o acesso deste app à sua loja, por isso avaliações, pedidos e notas estão pausados (nada se perde: eles aguardam e são enviados quando o acesso voltar). Feche o app e abra-o de novo pelo admin do Shopify para restaurá-lo.",

  "error.auth":
    "O serviço de avaliações recusou estas credenciais. Confira a chave do cliente, o client id e o client secret no painel do serviço (Configurações › Integrações › API).",
  "error.unreachable":
    "O serviço de avaliações não respondeu. Ele pode estar fora do ar ou o endereço pode estar errado; tente de novo em instantes.",
  "error.rateLimited": "O serviço de avaliações pediu para irmos mais devagar. Tente de novo em {seconds} segundos.",
  "error.refused": "O serviço de avaliações recusou o pedido: {detail}",
  "error.response":
    "O serviço de avaliações respondeu de um jeito que este app não entende. Tente mais tarde; se continuar, fale com o suporte.",
  "error.notFound": "O serviço de avaliações não conhece mais este item.",
  "error.unknown": "Aconteceu algo inesperado. Tente de novo.",
};
