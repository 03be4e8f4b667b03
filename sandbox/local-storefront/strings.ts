// The local storefront's own few strings (its layout, not the blocks: those come from the
// extension's locales), in the three storefront languages.

export const LOCALES = ["en", "pt-BR", "es"] as const;
export type Locale = (typeof LOCALES)[number];

const STRINGS = {
  en: {
    catalog: "Catalog",
    logIn: "Log in as",
    loggedOut: "Logged out (guest)",
    apply: "Apply",
    language: "Language",
    addToCart: "Add to cart",
    notFound: "Page not found",
    skip: "Skip to content",
    products: "Products",
    storeReviews: "Store reviews",
    footer: "Local storefront: offline rendering of the theme app extension.",
    account: "My account",
    orderHistory: "Order history",
    noOrders: "You have not placed any orders yet.",
    orderCol: "Order",
    dateCol: "Date",
    backToAccount: "Back to my account",
    accountLogin: "Choose a customer under “Log in as” to see their account.",
  },
  "pt-BR": {
    catalog: "Catálogo",
    logIn: "Entrar como",
    loggedOut: "Sem login (visitante)",
    apply: "Aplicar",
    language: "Idioma",
    addToCart: "Adicionar ao carrinho",
    notFound: "Página não encontrada",
    skip: "Pular para o conteúdo",
    products: "Produtos",
    storeReviews: "Avaliações da loja",
    footer: "Loja local: renderização offline da extensão de tema.",
    account: "Minha conta",
    orderHistory: "Histórico de pedidos",
    noOrders: "Você ainda não fez pedidos.",
    orderCol: "Pedido",
    dateCol: "Data",
    backToAccount: "Voltar para minha conta",
    accountLogin: "Escolha um cliente em “Entrar como” para ver a conta.",
  },
  es: {
    catalog: "Catálogo",
    logIn: "Iniciar sesión como",
    loggedOut: "Sin sesión (invitado)",
    apply: "Aplicar",
    language: "Idioma",
    addToCart: "Añadir al carrito",
    notFound: "Página no encontrada",
    skip: "Saltar al contenido",
    products: "Productos",
    storeReviews: "Reseñas de la tienda",
    footer: "Tienda local: renderizado sin conexión de la extensión del tema.",
    account: "Mi cuenta",
    orderHistory: "Historial de pedidos",
    noOrders: "Aún no has hecho pedidos.",
    orderCol: "Pedido",
    dateCol: "Fecha",
    backToAccount: "Volver a mi cuenta",
    accountLogin: "Elige un cliente en “Iniciar sesión como” para ver su cuenta.",
  },
} satisfies Record<Locale, Record<string, string>>;

export type StringKey = keyof (typeof STRINGS)["en"];
export const str = (locale: Locale, key: StringKey) => STRINGS[locale][key];

/** `/pt-BR/products/x` → locale pt-BR and path `/products/x`; no prefix → en. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const m = /^\/(pt-BR|es|en)(\/.*|$)/i.exec(pathname);
  if (!m) return { locale: "en", path: pathname };
  const locale = LOCALES.find((l) => l.toLowerCase() === m[1].toLowerCase()) ?? "en";
  return { locale, path: m[2] || "/" };
}

export const localePath = (locale: Locale, path: string) => (locale === "en" ? path : `/${locale}${path}`);
