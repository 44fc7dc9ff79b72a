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

// A moment's wall-clock parts in the room's time zone.
const partsFmt = new Intl.DateTimeFormat("en-GB", {
  timeZone: roomTz, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
  hour: "2-digit", minute: "2-digit", second: "2-digit",
});
function roomParts(ms) {
  return Object.fromEntries(partsFmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
}

// A UTC ISO time as the value of an <input type="datetime-local"> in the room's time zone
// ("2026-11-27T19:30"), whatever zone the browser is in.
export function roomTimeInput(iso) {
  const p = roomParts(Date.parse(iso));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

// The reverse: an <input type="datetime-local"> value read as the room's wall clock, as a UTC
// ISO time. The zone's offset is taken at that moment (so across a DST change too).
export function roomTimeToUtc(local) {
  const asUtc = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  const offset = (ms) => {
    const p = roomParts(ms);
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - ms;
  };
  let utc = asUtc - offset(asUtc);
  utc = asUtc - offset(utc); // the offset at the moment itself, not at the guess
  return new Date(utc).toISOString();
}

export function seconds(total) {
  const s = Math.max(0, Math.round(total));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Escape text for innerHTML templates.
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
