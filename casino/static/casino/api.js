// REST client of the consoles (issue #13). Every call goes to the public API under /api/v1/.
//
// * JSON in, JSON out.
// * Authentication: a paired dealer tablet sends `Authorization: Token <token>`
//   (setDeviceToken); a staff console uses its session cookie and sends the CSRF token as
//   `X-CSRFToken` on every unsafe request.
// * Every write carries an `Idempotency-Key`, one per user intent (a click), REUSED on
//   each retry of that intent: a write whose answer was lost is retried safely; the server
//   answers the first result again and appends nothing (casino/eventstore/commands.py).
// * The page's language goes as Accept-Language, so refusals are said in it.
// * Errors come back as ApiError with the server's {code, rule, detail}; describeError()
//   turns it into words, the rule ID with its title ("BET-9 · a raise must be ...").

const gettext = globalThis.gettext || ((s) => s);
// An API field as the console says it ("heslo", not "password", on a Czech page: QA); a
// field with no entry in the catalogue keeps its API name.
const fieldName = (field) => (globalThis.pgettext ? globalThis.pgettext("api field", field) : field);

let deviceToken = null;
let csrfToken = null;

export function setDeviceToken(token) { deviceToken = token || null; }
export function getDeviceToken() { return deviceToken; }
export function setCsrfToken(token) { csrfToken = token || null; }

function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

// A UUID v4 from crypto.getRandomValues (crypto.randomUUID needs a secure context; a
// tablet on the room's LAN may be served over plain http).
export function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.code || "error";
    this.rule = this.body.rule || null;
    this.detail = this.body.detail || "";
  }
}

// The request never got an answer (network down, server unreachable): retry the SAME
// intent with err.retry(), which sends the same Idempotency-Key.
export class NetworkError extends Error {
  // `sent`: the write that got no answer ({method, path, body, key, ifMatch}), so that a
  // page can keep it across a reload and resend it with the same key (intent.js)
  constructor(cause, retry, sent = null) {
    super(gettext("No answer from the server (offline?). Nothing is lost: retry."));
    this.cause = cause;
    this.retry = retry;
    this.sent = sent;
  }
}

let ruleTitles = null;
export function ruleTitle(rule) {
  if (!ruleTitles) {
    const el = document.getElementById("rule-titles");
    ruleTitles = el ? JSON.parse(el.textContent) : {};
  }
  return ruleTitles[rule] || null;
}

function fieldErrors(errors, prefix = "") {
  if (!errors || typeof errors !== "object") return [];
  const out = [];
  for (const [field, value] of Object.entries(errors)) {
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
      out.push(`${prefix}${fieldName(field)}: ${value.join(" ")}`);
    } else if (typeof value === "object") {
      out.push(...fieldErrors(value, `${prefix}${fieldName(field)}.`));
    }
  }
  return out;
}

// A refusal in words: "Rule BET-9 (a raise must be ...): <server detail>".
export function describeError(err) {
  if (err instanceof NetworkError) return err.message;
  if (!(err instanceof ApiError)) return String(err && err.message ? err.message : err);
  const parts = [];
  if (err.rule) {
    const title = ruleTitle(err.rule);
    parts.push(title ? `${gettext("Rule")} ${err.rule} (${title})` : `${gettext("Rule")} ${err.rule}`);
  }
  if (err.status === 401) parts.push(gettext("Not logged in or the device token is not valid."));
  else if (err.status === 403) parts.push(gettext("Your role or device may not do this."));
  // the console's own sentence: the server's "reload and try again" contradicted it (QA)
  else if (err.code === "version_conflict") parts.push(gettext("Another screen changed this first; the view is refreshed."));
  if (err.code !== "version_conflict") parts.push(err.detail);
  const fields = fieldErrors(err.body.errors);
  if (fields.length) parts.push(fields.join("; "));
  return parts.filter(Boolean).join(" — ");
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

async function ensureCsrf() {
  if (csrfToken) return csrfToken;
  csrfToken = cookie("csrftoken");
  if (!csrfToken) {
    const r = await fetch("/api/v1/auth/csrf/", { credentials: "same-origin" });
    csrfToken = (await r.json()).csrf_token;
  }
  return csrfToken;
}

// One HTTP exchange. Throws ApiError (the server said no) or NetworkError (no answer).
// A `meta` object receives `total`, the answer's X-Total-Count (a cut list's full count).
export async function request(method, path, { body, key, ifMatch, signal, meta } = {}) {
  const headers = { Accept: "application/json" };
  // The page's language (EN/CS switch), for refusals said in it: a tablet sends no cookie
  // (its token is its credential), so its refusals came in the browser's language instead
  // (a Czech tablet read English after losing a race to another tablet; found by QA).
  const lang = document.documentElement.lang;
  if (lang) headers["Accept-Language"] = lang;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (deviceToken) headers.Authorization = `Token ${deviceToken}`;
  else if (UNSAFE.has(method)) headers["X-CSRFToken"] = await ensureCsrf();
  if (key) headers["Idempotency-Key"] = key;
  if (ifMatch !== undefined && ifMatch !== null) headers["If-Match"] = String(ifMatch);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: deviceToken ? "omit" : "same-origin",
      signal,
    });
  } catch (cause) {
    throw new NetworkError(cause, () => request(method, path, { body, key, ifMatch, signal }));
  }
  if (meta) meta.total = Number(response.headers.get("X-Total-Count")) || null;
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { code: "not_json", detail: text.slice(0, 200) }; }
  if (!response.ok) {
    // 502/503/504: a proxy or a restarting server; the write may or may not have happened:
    // the same key makes the retry safe.
    if (response.status >= 502 && response.status <= 504) {
      throw new NetworkError(new Error(`HTTP ${response.status}`), () => request(method, path, { body, key, ifMatch, signal }));
    }
    throw new ApiError(response.status, data);
  }
  return data;
}

export const get = (path, opts) => request("GET", path, opts);

// A user intent: one Idempotency-Key for every try of this one write. Automatic retries
// (network errors only) use the same key; if they all fail, the NetworkError's retry()
// sends it again with the same key, e.g. from a "Retry" button.
export async function write(method, path, body, { key = newKey(), ifMatch, attempts = 3 } = {}) {
  let last;
  for (let i = 0; i < attempts; i += 1) {
    try {
      return await request(method, path, { body, key, ifMatch });
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      last = err;
      await new Promise((r) => setTimeout(r, 300 * 2 ** i));
    }
  }
  throw new NetworkError(last.cause, () => write(method, path, body, { key, ifMatch, attempts }),
    { method, path, body, key, ifMatch: ifMatch ?? null });
}

export const post = (path, body = {}, opts) => write("POST", path, body, opts);
export const patch = (path, body = {}, opts) => write("PATCH", path, body, opts);
