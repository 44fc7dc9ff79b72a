// Formatting for the consoles: amounts in CZK or chips, times in the room's time zone
// (settings.CASINO_TIME_ZONE on <body data-tz>), numbers in the page's language.
const body = document.body.dataset;
export const lang = body.lang || "en";
export const roomTz = body.tz || "Europe/Prague";
export const currency = body.currency || "CZK";
const gettext = globalThis.gettext || ((s) => s);

const num = new Intl.NumberFormat(lang === "cs" ? "cs-CZ" : "en-GB");

export function number(n) { return n === null || n === undefined ? "—" : num.format(n); }

// mode: "cash" (CZK) or "tournament" (chips).
export function amount(n, mode = "cash") {
  if (n === null || n === undefined) return "—";
  return mode === "tournament" ? `${num.format(n)} ${gettext("chips")}` : `${num.format(n)} ${currency}`;
}

const timeFmt = new Intl.DateTimeFormat(lang === "cs" ? "cs-CZ" : "en-GB", {
  timeZone: roomTz, hour: "2-digit", minute: "2-digit", second: "2-digit",
});
const dateTimeFmt = new Intl.DateTimeFormat(lang === "cs" ? "cs-CZ" : "en-GB", {
  timeZone: roomTz, year: "numeric", month: "2-digit", day: "2-digit",
  hour: "2-digit", minute: "2-digit", second: "2-digit",
});

// UTC ISO times from the API, shown in the room's time zone.
export function time(iso) { return iso ? timeFmt.format(new Date(iso)) : "—"; }
export function dateTime(iso) { return iso ? dateTimeFmt.format(new Date(iso)) : "—"; }

export function seconds(total) {
  const s = Math.max(0, Math.round(total));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Escape text for innerHTML templates.
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
