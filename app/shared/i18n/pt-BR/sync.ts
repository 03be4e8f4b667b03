import type { sync as en } from "../en/sync";

// Portuguese (Brazil) words of the sync page.

export const sync: Record<keyof typeof en, string> = {
  "sync.title": "Sincronização",
  "sync.now": "Sincronizar tudo agora",
  "sync.started": "Sincronização iniciada.",
  "sync.catalog": "Catálogo",
  "sync.orders": "Pedidos",
  "sync.status.pending": "Aguardando início",
  "sync.status.running": "Em andamento",
  "sync.status.reading": "Lendo da Shopify",
  "sync.status.completed": "Concluída",
  "sync.status.failed": "Falhou",
  "sync.status.cancelled": "Cancelada",
  "sync.status.never": "Nunca executada",
  "sync.progress": "{done} de {total}",
  "sync.progressUnknown": "{done} até agora (a Shopify está contando)",
  "sync.counts":
    "Lidos {read} · enviados {sent} · criados {created} · atualizados {updated} · sem mudança {unchanged} · com falha {failed}",
  "sync.mirror": "Produtos: {synced} no serviço, {failed} recusados, {pending} aguardando",
  "sync.ordersKnown": "Pedidos no serviço: {sent}; recusados: {failed}",
  "sync.recentRuns": "Execuções recentes",
  "sync.col.kind": "Tipo",
  "sync.col.status": "Situação",
  "sync.col.started": "Início",
  "sync.col.finished": "Fim",
  "sync.col.counts": "Lidos / enviados / falhas",
  "sync.noRuns": "Nenhuma sincronização ainda",
  "sync.noRuns.body": "Conecte sua conta na página inicial e a primeira sincronização começa sozinha.",
  "sync.refused": "Recusados pelo serviço de avaliações",
  "sync.refusedProducts": "Produtos",
  "sync.refusedOrders": "Pedidos",
  "sync.col.product": "Produto",
  "sync.col.order": "Pedido",
  "sync.col.reason": "Motivo",
  "sync.col.when": "Quando",
  "sync.retry": "Tentar de novo",
  "sync.retryAll": "Reenviar produtos recusados",
  "sync.retried": "Enviado de novo.",
  "sync.noRefused": "Nada recusado",
  "sync.noRefused.body": "Todos os produtos e pedidos enviados pelo app foram aceitos.",
  "sync.health": "Trabalho em segundo plano",
  "sync.queueDepth": "Tarefas na fila: {count}",
  "sync.queueIdle": "Nenhuma tarefa na fila: o worker está ocioso.",
  "sync.queueScheduled": "{count} agendadas para depois (as consultas periódicas e novas tentativas).",
  "sync.queueScheduled.one": "1 agendada para depois (as consultas periódicas e novas tentativas).",
  "sync.workerAlive": "Um worker está rodando (visto há {seconds} s).",
  "sync.workerDown": "Nenhum worker está rodando: as sincronizações esperam até um começar. Avise quem opera este app.",
  "sync.error": "Erro: {error}",
  "sync.addressRefused": "O Shopify recusou o endereço deste servidor: adicione-o à lista de IPs permitidos do app.",
  "sync.addressRefused.paused":
    "A sincronização com o Shopify está pausada desde {since}; ela volta sozinha quando o Shopify aceitar o endereço (próxima verificação {next}).",
  "sync.addressRefused.detail": "O Shopify respondeu: {detail}",
  "sync.readPath.bulk": "Lido com uma operação em massa.",
  "sync.readPath.paged":
    "Lido página por página: o Shopify recusou operações em massa ({reason}). Ative as consultas em massa no Partner Dashboard para voltar a usá-las.",
  "sync.status.live": "Enviando as mudanças conforme chegam",
  "sync.status.resent": "Enviando tudo de novo",
  "sync.resend":
    "Interrompida: o serviço de avaliações não tinha mais o que o app enviou (outra conta, ou os dados foram apagados). Tudo é enviado de novo.",
  "sync.noRuns.live":
    "Nenhuma sincronização completa rodou: {count} foram ao serviço de avaliações conforme mudaram no Shopify.",
  "sync.noRuns.connected": "Nenhuma sincronização completa rodou ainda: “Sincronizar tudo agora” envia tudo.",
  "sync.forgotten.title": "Enviados de novo",
  "sync.forgotten.unknown":
    "Enviados de novo porque o serviço de avaliações não os conhecia mais: produtos {products}, pedidos {orders} (último em {at}).",
  "sync.forgotten.account":
    "Conectado a outra conta do serviço de avaliações em {at}: o que foi enviado antes (produtos {products}, pedidos {orders}) está sendo enviado de novo para ela.",
  "sync.forgotten.denied":
    "Ainda desconhecidos pelo serviço de avaliações depois de enviados de novo: {denied}. Cada um é reenviado no máximo uma vez a cada {hours} h; verifique a conta no serviço de avaliações.",
};
